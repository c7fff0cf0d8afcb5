// Retention's policy (DESIGN §11), run off the request path: `serve` runs a pass every
// `EventRetention.passInterval`. A pass reads the log from its oldest end, a batch at a
// time, up to the first event still inside the retention window, and deletes each event of
// the batch that nobody keeps: every event older than the window, except the locations
// that are still in their vehicle's history (its newest 1,000 since it was created; the
// history is read from the log, LocationHistory). Each batch is one small store write, so
// the writes of the API wait for at most one batch; the space freed is reused by the log's
// next events, and a fleet at a steady rate keeps a database of steady size.
//
// Which locations a vehicle keeps: those from its history's first one on, its "floor". A
// floor only ever rises (new locations push the history on; a vehicle deleted and created
// again starts a new one after all the old ones), so a floor computed once stays a safe
// lower bound: what lies below it is never in the history again. The trimmer caches each
// vehicle's floor (computing one reads the vehicle's 1,000 newest locations) and trusts it
// until the next head pass: locations kept this way sit at the head of the log, so a pass
// starts where the last one stopped, and every tenth pass starts from the head again, with
// each floor computed anew once (if the vehicle has moved since), to delete the kept
// locations that newer ones have since pushed out of their history.

import Synchronization
import TripModel
import TripStore

/// Deletes the events the event log no longer keeps, in batches (see the file comment).
public final class EventLogTrimmer: Sendable {
    /// What a pass did.
    public struct Pass: Hashable, Sendable {
        /// Events older than the retention window that the pass looked at.
        public var examined = 0
        /// Events it deleted.
        public var deleted = 0
        /// Store writes it made.
        public var batches = 0
    }

    private struct VehicleKey: Hashable {
        var provider: String
        var id: String
    }

    private struct Floor {
        /// The vehicle's last location when the floor was computed.
        var lastLocation: VehicleLocation?
        /// Its history's first event ID (Int64.max: no history).
        var firstKept: Int64
        /// The head pass it was computed in (0: in another pass).
        var computedInSweep: Int
        /// The head pass that last used it, to forget vehicles that are gone.
        var usedInSweep: Int
    }

    private struct State {
        /// The last event examined: events before it were deleted or are kept locations.
        var cursor: Int64 = 0
        var passes = 0
        var sweeps = 0
        var floors: [VehicleKey: Floor] = [:]
    }

    /// What is kept.
    public let retention: EventRetention
    /// Events read and judged per store write.
    public let batchSize: Int
    private let store: any TripStore
    private let clock: WallClock
    private let state = Mutex(State())
    /// Every this many passes, a pass starts from the log's head (see the file comment).
    static let headSweepEvery = 10

    /// A trimmer of `fleet`'s event log that keeps what `retention` says, deleting at most
    /// `batchSize` events per store write.
    public init(fleet: Fleet, retention: EventRetention, batchSize: Int = 256) {
        self.store = fleet.store
        self.clock = fleet.clock
        self.retention = retention
        self.batchSize = max(1, batchSize)
    }

    /// Runs one pass: deletes, batch by batch, every event older than the retention window
    /// that no vehicle's history holds. A cancelled pass stops after its current batch (the
    /// next one goes on from there).
    @discardableResult
    public func trim() async throws -> Pass {
        let now = clock.now
        let window = retention.duration.components
        let cutoff = Timestamp(microseconds: now.microseconds - window.seconds * 1_000_000 - window.attoseconds / 1_000_000_000_000)
        let (start, sweep) = state.withLock { state -> (Int64, Int?) in
            state.passes += 1
            guard (state.passes - 1) % Self.headSweepEvery == 0 else { return (state.cursor, nil) }
            state.sweeps += 1
            return (0, state.sweeps)
        }
        var pass = Pass()
        var after = start
        while true {
            let page = try await store.events(after: after, filter: .all, limit: batchSize)
            let old = page.prefix { $0.time < cutoff }
            guard let last = old.last else { break }
            let doomed = try await unkept(Array(old), sweep: sweep)
            if !doomed.isEmpty {
                try await store.write { tx in try tx.deleteEvents(doomed) }
                pass.batches += 1
            }
            pass.examined += old.count
            pass.deleted += doomed.count
            after = last.id
            if old.count < batchSize || Task.isCancelled { break }
            await Task.yield()
        }
        state.withLock { state in
            state.cursor = max(state.cursor, after)
            if let sweep { state.floors = state.floors.filter { $0.value.usedInSweep >= sweep - 1 } }
        }
        return pass
    }

    /// The IDs of the events of `events` (all older than the window) that nobody keeps.
    private func unkept(_ events: [StoredEvent], sweep: Int?) async throws -> [Int64] {
        let locations = events.filter { $0.type == Events.vehicleLocation && $0.vehicleId != nil }
        guard !locations.isEmpty else { return events.map(\.id) }
        let vehicles = Array(Set(locations.map { VehicleKey(provider: $0.provider, id: $0.vehicleId ?? "") }))
        // Each vehicle's last location, or nil when the vehicle is gone (and keeps nothing).
        let lastLocations = try await store.read { reader in
            try vehicles.map { key in try reader.vehicleRecord(provider: key.provider, id: key.id).map { $0.vehicle.lastLocation } }
        }
        var floors: [VehicleKey: Int64] = [:]
        for (key, lastLocation) in zip(vehicles, lastLocations) {
            floors[key] = try await floor(of: key, lastLocation: lastLocation, sweep: sweep)
        }
        return events.filter { event in
            guard event.type == Events.vehicleLocation, let vehicleId = event.vehicleId else { return true }
            return event.id < floors[VehicleKey(provider: event.provider, id: vehicleId)] ?? .max
        }.map(\.id)
    }

    /// The first event ID of the vehicle's location history (Int64.max when it has none), or
    /// a lower bound of it: the cached floor, unless this is a head pass that has not yet
    /// computed it anew and the vehicle has moved since it was computed.
    private func floor(of key: VehicleKey, lastLocation: VehicleLocation??, sweep: Int?) async throws -> Int64 {
        guard let lastLocation else {
            state.withLock { _ = $0.floors.removeValue(forKey: key) }
            return .max
        }
        let cached = state.withLock { state -> Int64? in
            guard var floor = state.floors[key] else { return nil }
            if let sweep {
                guard floor.lastLocation == lastLocation || floor.computedInSweep == sweep else { return nil }
                floor.usedInSweep = sweep
                state.floors[key] = floor
            }
            return floor.firstKept
        }
        if let cached { return cached }
        let history = try await store.newestEvents(
            provider: key.provider, vehicleId: key.id, type: Events.vehicleLocation, limit: EventRetention.locationsKept)
        let firstKept = history.first?.id ?? .max
        state.withLock { state in
            state.floors[key] = Floor(
                lastLocation: lastLocation, firstKept: firstKept, computedInSweep: sweep ?? 0,
                usedInSweep: sweep ?? state.sweeps)
        }
        return firstKept
    }
}
