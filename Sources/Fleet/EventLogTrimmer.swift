// Retention's policy (DESIGN §11), run off the request path: `serve` runs a pass every
// `EventRetention.passInterval`. A pass reads the log from where the last one stopped (its
// cursor; the first pass after start reads it from the oldest end), a batch at a time, up to
// the first event still inside the retention window, and deletes each event of the batch
// that nobody keeps: every event older than the window, except the locations that are still
// in their vehicle's history (its newest 1,000 since it was created; the history is read
// from the log, LocationHistory). Each batch is one small store write, so the writes of the
// API wait for at most one batch; the space freed is reused by the log's next events, and a
// fleet at a steady rate keeps a database of steady size.
//
// Which locations a vehicle keeps: those from its history's first one on, its "floor". A
// floor only ever rises (new locations push the history on; a vehicle deleted and created
// again starts a new one after all the old ones), so a floor computed once stays a safe
// lower bound: what lies below it is never in the history again. The trimmer caches the
// floor of each vehicle whose kept locations it has passed (the store finds a floor from
// the location IDs alone), and keeps this true: every location at or below the cursor that
// is still there lies at or above its vehicle's cached floor, so the vehicles it knows are
// the only ones with anything left behind the cursor. Vehicles found gone keep their floor,
// apart, until their locations are deleted.
//
// The kept locations behind the cursor are what newer ones later push out of a history.
// Every tenth pass is a head pass: after going on from its cursor, it goes over the cached
// floors, looks each moved (or gone) vehicle's floor up anew and deletes that vehicle's
// locations between its old and new floor, up to the cursor (what lies after it is for the
// passes that go on from there), in writes of at most a batch of events. So a head pass
// reads no event and touches only what it deletes.

import Synchronization
import TripModel
import TripStore

/// Deletes the events the event log no longer keeps, in batches (see the file comment).
package final class EventLogTrimmer: Sendable {
    /// What a pass did.
    package struct Pass: Hashable, Sendable {
        /// Whether the pass was a head pass (the first and every tenth): it also went over the
        /// vehicles with locations kept behind its cursor (see the file comment).
        package var head = false
        /// Events older than the retention window that the pass read and judged.
        package var examined = 0
        /// Vehicles whose history's first location the pass looked up (from the IDs alone).
        package var floorsRead = 0
        /// Events it deleted.
        package var deleted = 0
        /// Store writes it made.
        package var batches = 0
    }

    private struct Floor {
        /// The vehicle's last location when the floor was looked up.
        var lastLocation: VehicleLocation?
        /// Its history's first event ID.
        var firstKept: Int64
    }

    private struct State {
        /// The last event examined: events up to it were deleted or are kept locations.
        var cursor: Int64 = 0
        var passes = 0
        /// The floors of the vehicles with locations kept at or below the cursor.
        var floors: [VehicleKey: Floor] = [:]
        /// Vehicles found gone whose locations at or above this ID may still lie at or below
        /// the cursor: the next head pass deletes them.
        var gone: [VehicleKey: Int64] = [:]
    }

    /// Locations of one vehicle that a head pass deletes, and the floor it has once they are.
    private struct Pushed: Sendable {
        var vehicle: VehicleKey
        var ids: Range<Int64>
        var floor: Floor?
    }

    /// What is kept.
    package let retention: EventRetention
    /// Events read and judged, or deleted, per store write.
    package let batchSize: Int
    private let store: any TripStore
    private let clock: WallClock
    private let state = Mutex(State())
    /// Every this many passes, a pass goes over the histories (see the file comment).
    static let headSweepEvery = 10

    /// A trimmer of `fleet`'s event log that keeps what `retention` says, deleting at most
    /// `batchSize` events per store write.
    package init(fleet: Fleet, retention: EventRetention, batchSize: Int = 256) {
        self.store = fleet.store
        self.clock = fleet.clock
        self.retention = retention
        self.batchSize = max(1, batchSize)
    }

    /// Runs one pass: deletes, batch by batch, every event older than the retention window
    /// that no vehicle's history holds. A cancelled pass stops after its current batch (the
    /// next one goes on from there).
    @discardableResult
    package func trim() async throws -> Pass {
        let now = clock.now
        let window = retention.duration.components
        let cutoff = Timestamp(microseconds: now.microseconds - window.seconds * 1_000_000 - window.attoseconds / 1_000_000_000_000)
        var pass = Pass()
        let start: Int64
        (start, pass.head) = state.withLock { state in
            state.passes += 1
            return (state.cursor, (state.passes - 1) % Self.headSweepEvery == 0)
        }
        var after = start
        while true {
            let page = try await store.events(after: after, filter: .all, limit: batchSize)
            let old = page.prefix { $0.time < cutoff }
            guard let last = old.last else { break }
            let doomed = try await unkept(Array(old), pass: &pass)
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
        let cursor = state.withLock { state in
            state.cursor = max(state.cursor, after)
            return state.cursor
        }
        if pass.head, !Task.isCancelled { try await deletePushedOut(through: cursor, pass: &pass) }
        return pass
    }

    /// The IDs of the events of `events` (all older than the window) that nobody keeps.
    private func unkept(_ events: [StoredEvent], pass: inout Pass) async throws -> [Int64] {
        let locations = events.filter { $0.type == Events.vehicleLocation && $0.vehicleId != nil }
        guard !locations.isEmpty else { return events.map(\.id) }
        let vehicles = Array(Set(locations.map { VehicleKey(provider: $0.provider, id: $0.vehicleId ?? "") }))
        let lastLocations = try await lastLocations(of: vehicles)
        var floors: [VehicleKey: Int64] = [:]
        for (key, lastLocation) in zip(vehicles, lastLocations) {
            floors[key] = try await floor(of: key, lastLocation: lastLocation, pass: &pass)
        }
        return events.filter { event in
            guard event.type == Events.vehicleLocation, let vehicleId = event.vehicleId else { return true }
            return event.id < floors[VehicleKey(provider: event.provider, id: vehicleId)] ?? .max
        }.map(\.id)
    }

    /// Each vehicle's last location, or nil when the vehicle is gone (and keeps nothing).
    private func lastLocations(of vehicles: [VehicleKey]) async throws -> [VehicleLocation??] {
        try await store.read { reader in
            try vehicles.map { key in try reader.vehicleRecord(provider: key.provider, id: key.id).map { $0.vehicle.lastLocation } }
        }
    }

    /// The first event ID of the vehicle's location history (Int64.max when it has none), or
    /// a lower bound of it: the cached floor, or one looked up now (and cached when there is a
    /// history). A gone vehicle's floor moves to the gone ones, for the next head pass.
    private func floor(of key: VehicleKey, lastLocation: VehicleLocation??, pass: inout Pass) async throws -> Int64 {
        guard let lastLocation else {
            state.withLock { state in
                guard let floor = state.floors.removeValue(forKey: key) else { return }
                state.gone[key] = min(state.gone[key] ?? .max, floor.firstKept)
            }
            return .max
        }
        if let cached = state.withLock({ $0.floors[key]?.firstKept }) { return cached }
        pass.floorsRead += 1
        guard let firstKept = try await historyStart(of: key) else { return .max }
        state.withLock { $0.floors[key] = Floor(lastLocation: lastLocation, firstKept: firstKept) }
        return firstKept
    }

    /// The ID of the first location in the vehicle's history, nil when it has none.
    private func historyStart(of key: VehicleKey) async throws -> Int64? {
        try await store.newestEventsFirstID(
            provider: key.provider, vehicleId: key.id, type: Events.vehicleLocation, limit: EventRetention.locationsKept)
    }

    /// A head pass's second half: for each vehicle with locations kept up to `cursor` that has
    /// moved or is gone, looks its floor up anew and deletes its locations from the cached
    /// floor up to the new one and up to `cursor`, at most a batch per write.
    private func deletePushedOut(through cursor: Int64, pass: inout Pass) async throws {
        let (floors, gone) = state.withLock { ($0.floors, $0.gone) }
        let vehicles = Array(Set(floors.keys).union(gone.keys))
        var pushed: [Pushed] = []
        for start in stride(from: 0, to: vehicles.count, by: batchSize) {
            let chunk = Array(vehicles[start..<min(start + batchSize, vehicles.count)])
            for (key, lastLocation) in zip(chunk, try await lastLocations(of: chunk)) {
                let cached = floors[key]
                if gone[key] == nil, let cached, let lastLocation, cached.lastLocation == lastLocation { continue }
                var floor: Floor?
                if let lastLocation {
                    pass.floorsRead += 1
                    floor = try await historyStart(of: key).map { Floor(lastLocation: lastLocation, firstKept: $0) }
                }
                let lower = min(cached?.firstKept ?? .max, gone[key] ?? .max)
                let upper = min(floor?.firstKept ?? .max, cursor + 1)
                pushed.append(Pushed(vehicle: key, ids: lower..<max(lower, upper), floor: floor))
            }
        }
        var next = 0
        while next < pushed.count, !Task.isCancelled {
            let work = pushed[next...].prefix { !$0.ids.isEmpty }.prefix(batchSize)
            var finished = 0
            if !work.isEmpty {
                let limit = batchSize
                let (deleted, done) = try await store.write { tx -> (Int, Int) in
                    var budget = limit
                    var done = 0
                    for item in work {
                        budget -= try tx.deleteEvents(
                            provider: item.vehicle.provider, vehicleId: item.vehicle.id, type: Events.vehicleLocation,
                            ids: item.ids, limit: budget)
                        // Out of budget: the vehicle may have more, for the next write.
                        if budget == 0 { break }
                        done += 1
                    }
                    return (limit - budget, done)
                }
                pass.deleted += deleted
                pass.batches += 1
                finished = done
            } else {
                finished = 1
            }
            let settled = pushed[next..<next + finished]
            state.withLock { state in
                for item in settled {
                    state.gone[item.vehicle] = nil
                    state.floors[item.vehicle] = item.floor
                }
            }
            next += finished
            await Task.yield()
        }
    }
}
