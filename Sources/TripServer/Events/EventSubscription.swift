// One client's place in the event log: it catches up from the store, then follows its buffer
// in the broadcaster, and goes back to the store whenever the buffer overflowed. Retention
// deletes old events: a client whose place is older than the log's start (it resumed from an
// old ID, or caught up too slowly) is told so once, and goes on from the start.

import TripStore

/// The events one SSE client receives, in log order, each once.
struct EventSubscription: Sendable {
    /// What ``next()`` returns.
    enum Delivery: Sendable {
        /// Events in ID order.
        case events([StoredEvent])
        /// Events after the cursor up to this ID may have been deleted by retention: the
        /// client should read the state anew; the stream goes on after this ID.
        case expired(through: Int64)
        /// Nothing new for a while: send a heartbeat.
        case heartbeat
        /// The server is shutting down.
        case finished
    }

    let broadcaster: EventBroadcaster
    let id: Int
    let filter: EventFilter
    /// The ID of the last event delivered (or the starting point).
    private(set) var cursor: Int64
    private var catchingUp = true

    init(broadcaster: EventBroadcaster, id: Int, filter: EventFilter, cursor: Int64) {
        self.broadcaster = broadcaster
        self.id = id
        self.filter = filter
        self.cursor = cursor
    }

    /// The next events after ``cursor``, waiting for them if there are none yet.
    mutating func next() async throws -> Delivery {
        while true {
            if catchingUp {
                let pageSize = broadcaster.configuration.pageSize
                let (fleet, filter, after) = (broadcaster.fleet, filter, cursor)
                let (page, start) = try await broadcaster.catchUps.withPermit {
                    let page = try await fleet.events(after: after, filter: filter, limit: pageSize)
                    // Read after the page: when the start is not beyond the cursor, nothing
                    // after the cursor had been deleted when the page was read.
                    return (page, try await fleet.eventLogStart())
                }
                if start > cursor {
                    cursor = start
                    return .expired(through: start)
                }
                if page.count < pageSize { catchingUp = false }
                if let last = page.last {
                    cursor = last.id
                    return .events(page)
                }
                continue
            }
            switch await broadcaster.take(id, after: cursor) {
            case .events(let events):
                if let last = events.last { cursor = last.id }
                return .events(events)
            case .overflowed: catchingUp = true
            case .heartbeat: return .heartbeat
            case .finished: return .finished
            }
        }
    }

    /// Leaves the broadcaster.
    func close() {
        broadcaster.unsubscribe(id)
    }
}
