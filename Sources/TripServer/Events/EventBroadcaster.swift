// Fan-out of the store's event log to Server-Sent Event subscribers, built for a thousand of
// them per process.
//
// Writers never wait for subscribers: after each commit the fleet announces it
// (``Fleet/CommitAnnouncer``: this process's writes, and on a shared store the other
// processes' too), which calls `poke()`, and a poke only flags the pump. One pump task reads
// the new events from the store once per batch of
// writes (concurrent pokes coalesce) and appends each event to the bounded buffer of every
// subscriber whose filter it matches, waking only those. A subscriber drains its buffer at
// its client's pace. When a buffer overflows (a slow client), it is emptied and the
// subscriber catches up from the store at its own pace, from its last delivered ID: nothing
// is lost or repeated, and the slow client costs store reads, not memory or writers' time.
//
// A new subscriber (or one resuming from Last-Event-ID) also starts by catching up from the
// store, then switches to its buffer, skipping what it already delivered. Catching up is
// also where a subscriber learns that retention deleted events it had not seen yet. The buffer holds
// every event fetched after the subscriber registered, and the catch-up read starts after
// registering, so the two overlap and never leave a gap.
//
// Catching up is the one costly thing a subscriber does, and many may start at once (clients
// that all resume from the log's start): only a few read the store at a time, the others wait
// their turn, so writers keep the store's connections and the CPU. Each token may hold only
// so many streams, and a client that stops reading is closed by its connection's write
// timeout (ConnectionGuard): a stream never slows a writer.

import Access
import Fleet
import Hummingbird
import ServiceLifecycle
import Synchronization
import TripStore

/// Delivers new events of the store's log to subscribers, each filtered to one trip or vehicle.
final class EventBroadcaster: Service, Sendable {
    /// Bounds and intervals.
    struct Configuration: Sendable {
        /// Events a subscriber's buffer holds before it falls back to the store.
        var bufferCapacity = 1_024
        /// Events read from the store per query.
        var pageSize = 500
        /// Time between heartbeats (comment lines that keep proxies from closing idle streams).
        var heartbeatInterval = Duration.seconds(15)
        /// Subscribers that read the store to catch up at the same time.
        var concurrentCatchUps = 2
    }

    /// What a waiting subscriber is woken for.
    enum Wake: Sendable {
        case events
        case heartbeat
        case finished
    }

    /// Which subscribers an event concerns.
    enum Key: Hashable, Sendable {
        case vehicle(provider: String, vehicleId: String)
        case trip(provider: String, tripId: String)
        case all
    }

    struct Subscriber {
        var key: Key
        /// Whose stream it is: streams are counted per token's identity.
        var owner: Principal?
        var buffer: [StoredEvent] = []
        var overflowed = false
        var heartbeatDue = false
        var waiter: CheckedContinuation<Wake, Never>?
    }

    struct State {
        /// The newest event the pump has read; nil until the first read of the log's end.
        var latestID: Int64?
        var pumping = false
        var pokedWhilePumping = false
        var finished = false
        var nextSubscriberID = 0
        var subscribers: [Int: Subscriber] = [:]
        var byKey: [Key: Set<Int>] = [:]
        var streamsByOwner: [Principal: Int] = [:]
    }

    let fleet: Fleet
    let configuration: Configuration
    /// Turns to read the store for subscribers catching up.
    let catchUps: AsyncPermits
    private let state = Mutex(State())

    /// Creates a broadcaster over the fleet's event log, woken by each of the fleet's commits.
    init(fleet: Fleet, configuration: Configuration = Configuration()) {
        self.fleet = fleet
        self.configuration = configuration
        catchUps = AsyncPermits(configuration.concurrentCatchUps)
        fleet.commits.listen { [weak self] in self?.poke() }
    }

    /// Says that a write may have appended events. Never waits: it starts the pump, or
    /// asks the running pump to read again.
    func poke() {
        // The pump is the one task the server starts on its own: it must outlive the
        // request that poked it, and at most one runs at a time.
        if claimPump() { Task { await pump() } }
    }

    /// Reads and delivers what the log holds now, in the caller's task, unless a pump is
    /// already running (which will then read again).
    func drain() async {
        if claimPump() { await pump() }
    }

    private func claimPump() -> Bool {
        state.withLock { state -> Bool in
            if state.pumping {
                state.pokedWhilePumping = true
                return false
            }
            state.pumping = true
            return true
        }
    }

    /// Sends a heartbeat to every subscriber every interval, and reads the log too (for
    /// writes made by other processes) until graceful shutdown, which ends every stream.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: self.configuration.heartbeatInterval)
                } catch {
                    break
                }
                self.heartbeat()
                self.poke()
            }
        }
        finish()
    }

    /// Wakes every subscriber to send a heartbeat.
    func heartbeat() {
        wakeAll(.heartbeat) { $0.heartbeatDue = true }
    }

    /// Ends every subscription (graceful shutdown): their streams close.
    func finish() {
        state.withLock { $0.finished = true }
        wakeAll(.finished) { _ in }
    }

    /// Subscribes to the events matching `filter` after the log's ID `after` (nil: only events
    /// from now on), for `owner`, who may hold at most `limit` streams (RESOURCE_EXHAUSTED
    /// beyond). An `after` beyond the log's end is not one of this stream's IDs: INVALID_ARGUMENT.
    func subscribe(_ filter: EventFilter, after: Int64?, owner: Principal? = nil, limit: Int = .max) async throws -> EventSubscription {
        let latest = try await fleet.latestEventID()
        if let after, after > latest {
            throw APIError.invalid("Last-Event-ID: not an event ID of this stream; resume with an ID it sent, or 0 for its start")
        }
        let id = try state.withLock { state throws(APIError) -> Int in
            if let owner {
                let open = state.streamsByOwner[owner, default: 0]
                guard open < limit else {
                    throw APIError(
                        .resourceExhausted, "this token has \(open) event streams open, as many as this server allows; close one first")
                }
                state.streamsByOwner[owner] = open + 1
            }
            // The pump starts from the log's end as it was before anyone subscribed; what
            // came before a subscriber's start is its catch-up's to read.
            if state.latestID == nil { state.latestID = latest }
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            let key = Self.key(filter)
            state.subscribers[id] = Subscriber(key: key, owner: owner)
            state.byKey[key, default: []].insert(id)
            return id
        }
        return EventSubscription(broadcaster: self, id: id, filter: filter, cursor: after ?? latest)
    }

    /// How many streams `owner` holds open.
    func streamCount(of owner: Principal) -> Int { state.withLock { $0.streamsByOwner[owner, default: 0] } }

    /// How many subscribers are connected.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    // MARK: - Subscriber side

    /// Takes the subscriber's buffered events with IDs above `cursor`, or waits for some, a
    /// heartbeat or the end. `.overflowed` means events were dropped from the buffer: read
    /// the store from `cursor`.
    func take(_ id: Int, after cursor: Int64) async -> Taken {
        while true {
            let immediate = state.withLock { state -> Taken? in
                guard var subscriber = state.subscribers[id], !state.finished else { return .finished }
                defer { state.subscribers[id] = subscriber }
                if subscriber.overflowed {
                    subscriber.overflowed = false
                    subscriber.buffer = []
                    return .overflowed
                }
                let fresh = subscriber.buffer.drop { $0.id <= cursor }
                subscriber.buffer = []
                if !fresh.isEmpty { return .events(Array(fresh)) }
                if subscriber.heartbeatDue {
                    subscriber.heartbeatDue = false
                    return .heartbeat
                }
                return nil
            }
            if let immediate { return immediate }
            let wake = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        guard var subscriber = state.subscribers[id], !state.finished else { return true }
                        if !subscriber.buffer.isEmpty || subscriber.overflowed || subscriber.heartbeatDue { return true }
                        subscriber.waiter = continuation
                        state.subscribers[id] = subscriber
                        return false
                    }
                    if resumeNow { continuation.resume(returning: .events) }
                }
            } onCancel: {
                self.cancel(id)
            }
            if wake == .finished { return .finished }
        }
    }

    /// What ``take(_:after:)`` found.
    enum Taken: Sendable {
        case events([StoredEvent])
        case heartbeat
        case overflowed
        case finished
    }

    /// Removes a subscriber.
    func unsubscribe(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Wake, Never>? in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return nil }
            state.byKey[subscriber.key]?.remove(id)
            if state.byKey[subscriber.key]?.isEmpty == true { state.byKey[subscriber.key] = nil }
            if let owner = subscriber.owner {
                let open = state.streamsByOwner[owner, default: 1] - 1
                state.streamsByOwner[owner] = open > 0 ? open : nil
            }
            return subscriber.waiter
        }
        waiter?.resume(returning: .finished)
    }

    /// Wakes a subscriber whose task was cancelled; it stays registered until unsubscribed.
    private func cancel(_ id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Wake, Never>? in
            let waiter = state.subscribers[id]?.waiter
            state.subscribers[id]?.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .finished)
    }

    // MARK: - Pump

    /// Reads new events until the log has no more than the last read saw, delivering each
    /// batch; then stops, unless poked meanwhile.
    private func pump() async {
        while true {
            // With nobody listening there is nothing to read; the next subscriber sets the
            // starting point again.
            let after = state.withLock { state -> Int64? in
                if state.subscribers.isEmpty { state.latestID = nil }
                return state.latestID
            }
            if let after {
                let batch: [StoredEvent]
                let start: Int64
                do {
                    batch = try await fleet.events(after: after, filter: .all, limit: configuration.pageSize)
                    start = batch.isEmpty ? 0 : try await fleet.eventLogStart()
                } catch {
                    // The store failed to read: stop; the next poke or heartbeat tries again.
                    state.withLock { $0.pumping = false }
                    return
                }
                // Retention deleted events the pump never read (it lagged by more than the
                // retention window): every subscriber reads the store from its own place,
                // where it learns what it missed.
                if start > after { wakeAll(.events) { $0.overflowed = true } }
                if deliver(batch) { continue }
            }
            let again = state.withLock { state -> Bool in
                if state.pokedWhilePumping {
                    state.pokedWhilePumping = false
                    return true
                }
                state.pumping = false
                return false
            }
            if !again { return }
        }
    }

    /// Appends a batch to the buffers of the subscribers it concerns and wakes them; true
    /// when the batch was a full page (there may be more).
    private func deliver(_ batch: [StoredEvent]) -> Bool {
        guard let last = batch.last else { return false }
        var woken: [CheckedContinuation<Wake, Never>] = []
        state.withLock { state in
            state.latestID = max(state.latestID ?? 0, last.id)
            guard !state.subscribers.isEmpty else { return }
            for event in batch {
                for key in Self.keys(of: event) {
                    guard let ids = state.byKey[key] else { continue }
                    for id in ids {
                        guard var subscriber = state.subscribers[id] else { continue }
                        if subscriber.buffer.count >= configuration.bufferCapacity {
                            subscriber.overflowed = true
                            subscriber.buffer = []
                        } else if !subscriber.overflowed {
                            subscriber.buffer.append(event)
                        }
                        if let waiter = subscriber.waiter {
                            woken.append(waiter)
                            subscriber.waiter = nil
                        }
                        state.subscribers[id] = subscriber
                    }
                }
            }
        }
        for waiter in woken { waiter.resume(returning: .events) }
        return batch.count >= configuration.pageSize
    }

    private func wakeAll(_ wake: Wake, _ mark: (inout Subscriber) -> Void) {
        let woken = state.withLock { state -> [CheckedContinuation<Wake, Never>] in
            var woken: [CheckedContinuation<Wake, Never>] = []
            for id in Array(state.subscribers.keys) {
                guard var subscriber = state.subscribers[id] else { continue }
                mark(&subscriber)
                if let waiter = subscriber.waiter { woken.append(waiter) }
                subscriber.waiter = nil
                state.subscribers[id] = subscriber
            }
            return woken
        }
        for waiter in woken { waiter.resume(returning: wake) }
    }

    static func key(_ filter: EventFilter) -> Key {
        switch filter {
        case .all: .all
        case .trip(let provider, let tripId): .trip(provider: provider, tripId: tripId)
        case .vehicle(let provider, let vehicleId): .vehicle(provider: provider, vehicleId: vehicleId)
        }
    }

    /// The keys whose subscribers an event concerns (the same rules as ``EventFilter``).
    static func keys(of event: StoredEvent) -> [Key] {
        var keys: [Key] = [.all]
        if let vehicleId = event.vehicleId { keys.append(.vehicle(provider: event.provider, vehicleId: vehicleId)) }
        for tripId in event.tripIds { keys.append(.trip(provider: event.provider, tripId: tripId)) }
        return keys
    }
}
