// The revisions of riders' trips as this process committed them, for a database no other
// process writes (issue 30). A rider's read whose view is kept checked the trip's revision
// with a read of SQLite: some 27 us of a 70 us GET at 10,000 vehicles (the reader pool's
// queue, the read transaction's file locks, the index and row pages), where the request
// without it costs 40 us, 0.7 of `/healthz`. A server that alone writes its SQLite file (`serve`
// holds ``SoleWriterLock``) knows every commit, so the revision can come from here instead.

import Synchronization
import TripStore

/// The current revision of trips whose live fields come from their vehicle, learned from reads
/// of SQLite and kept current by this process's commits. An entry is only ever a revision that
/// was committed and that no later commit of this process has yet replaced; a trip not here is
/// read from SQLite as before.
///
/// Why that holds without a lock around the reads: a read learns its versions only if no commit
/// was applied since just before it started (``Reading``), and a commit applied later updates
/// (or removes) the entry the read left. So an entry can lag a commit only between the commit
/// and its being applied, before the writer is answered, as a read of SQLite under way would.
final class CommittedRevisions: Sendable {
    private struct TripEntry {
        var version: Int64
        /// The vehicle whose row gives the trip's live fields (`provider/id`).
        var vehicleKey: String
    }

    private struct State {
        var trips: [String: TripEntry] = [:]
        var vehicles: [String: Int64] = [:]
        /// Commits (and forgettings) applied so far.
        var applied: UInt64 = 0
    }

    /// Where a read of SQLite started, for ``learn(trip:version:vehicleKey:vehicleVersion:since:)``.
    struct Reading {
        fileprivate let applied: UInt64
    }

    private let state = Mutex(State())
    /// How many trips are learned before starting over: a server that has run for days has
    /// read trips long finished, and starting over costs one read of SQLite per trip read again.
    let capacity: Int

    /// Nothing learned yet; at most `capacity` trips (and their vehicles) kept.
    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The trip's revision (its row's version and its vehicle's), if both are known.
    func revision(ofTrip key: String) -> Revision? {
        state.withLock { state in
            guard let trip = state.trips[key], let vehicle = state.vehicles[trip.vehicleKey] else { return nil }
            return Revision(row: trip.version, vehicleRow: vehicle)
        }
    }

    /// Marks the start of a read whose versions may be learned.
    func startReading() -> Reading {
        Reading(applied: state.withLock { $0.applied })
    }

    /// Learns what a read of SQLite found: the trip's row at `version`, its live fields from
    /// vehicle `vehicleKey`'s row at `vehicleVersion`; unless a commit was applied since the
    /// read started (`since`), whose rows the read may or may not have seen.
    func learn(trip key: String, version: Int64, vehicleKey: String, vehicleVersion: Int64, since reading: Reading) {
        state.withLock { state in
            guard state.applied == reading.applied else { return }
            if state.trips[key] == nil, state.trips.count >= capacity {
                state.trips.removeAll(keepingCapacity: true)
                state.vehicles.removeAll(keepingCapacity: true)
            }
            state.trips[key] = TripEntry(version: version, vehicleKey: vehicleKey)
            state.vehicles[vehicleKey] = vehicleVersion
        }
    }

    /// Applies a committed write's changes to what is known: a row written replaces the
    /// version known for it, a trip whose live fields no longer come from a vehicle and a row
    /// deleted are forgotten. Rows not known are not added (a read learns them).
    func apply(_ updates: [CacheUpdate]) {
        state.withLock { state in
            state.applied &+= 1
            for update in updates {
                switch update {
                case .vehicle(let key, let version, _):
                    if state.vehicles[key] != nil { state.vehicles[key] = version }
                case .trip(let key, let version, let row):
                    guard state.trips[key] != nil else { continue }
                    if row.progressFromVehicle, let vehicleId = row.trip.vehicleId, let slash = key.firstIndex(of: "/") {
                        state.trips[key] = TripEntry(version: version, vehicleKey: key[..<slash] + "/" + vehicleId)
                    } else {
                        state.trips[key] = nil
                    }
                case .removeVehicle(let key): state.vehicles[key] = nil
                case .removeTrip(let key): state.trips[key] = nil
                }
            }
        }
    }

    /// Forgets everything: a commit whose outcome is not known may have changed any row.
    func forgetAll() {
        state.withLock { state in
            state.applied &+= 1
            state.trips.removeAll()
            state.vehicles.removeAll()
        }
    }
}
