// Decoded rows by key and row version, shared by the SQLite and PostgreSQL stores, so a read
// of an unchanged row skips JSON decoding. An entry is only ever used for the version the
// database returned in the same transaction or statement: a write elsewhere (another
// connection, another process) moves the version, and the next read decodes the new body, so
// the caches can never serve a stale row.

import Caching
import TripModel

/// A decoded value cached under the row version it was decoded from, within a memory budget.
package struct VersionedCache<Value: Sendable & MemoryFootprint>: Sendable {
    /// Boxed, so that a hit copies a reference: a decoded vehicle with its tracking is a
    /// large struct, and copying whole entries out of the cache took about a seventh of a
    /// SearchVehicles over 400 candidates (issue 31).
    @usableFromInline
    final class Entry: Sendable {
        @usableFromInline let version: Int64
        @usableFromInline let value: Value

        init(version: Int64, value: Value) {
            self.version = version
            self.value = value
        }
    }

    @usableFromInline let entries: BoundedCache<String, Entry>

    /// A cache of entries whose estimated sizes (``MemoryFootprint``) count against `pool`,
    /// named `name` on `/metrics`.
    package init(pool: CachePool, name: String) { entries = BoundedCache(pool: pool, name: name) }

    /// The value, when the cache holds exactly `version`.
    package func value(for key: String, version: Int64) -> Value? {
        value(for: key, version: version) { $0 }
    }

    /// What `part` reads from the value, when the cache holds exactly `version`: the value
    /// is read in place, so a reader that needs one member copies only that. Inlinable, so
    /// that the stores' reads are specialised: generic code copied the whole value first.
    @inlinable
    package func value<Part>(for key: String, version: Int64, _ part: (Value) -> Part) -> Part? {
        entries.value(forKey: key, where: { $0.version == version }).map { part($0.value) }
    }

    /// The version held for `key`, if any (a read may send it, so that the body comes back
    /// only when it changed). Not counted as a lookup: the read's ``value(for:version:)`` is.
    package func version(for key: String) -> Int64? { entries.peekValue(forKey: key)?.version }

    /// The value held for `key` with its version, whatever the database's version is now: for
    /// work that is checked against the database's version afterwards.
    package func latest(for key: String) -> (version: Int64, value: Value)? {
        entries.value(forKey: key).map { ($0.version, $0.value) }
    }

    package func store(_ value: Value, for key: String, version: Int64) {
        let cost = value.approximateBytes + key.utf8.count + Self.entryOverhead
        entries.setValue(Entry(version: version, value: value), forKey: key, cost: cost)
    }

    package func remove(_ key: String) { entries.removeValue(forKey: key) }

    /// How many entries are held (for tests and statistics).
    package var count: Int { entries.count }

    /// The estimated bytes held.
    package var bytes: Int { entries.totalCost }

    /// What an entry costs beside its value and key: its box's header and version, its slots
    /// in the cache's ring and dictionary.
    private static var entryOverhead: Int { 16 + MemoryLayout<Int64>.stride + MemoryLayout<Entry>.stride + 64 }
}

/// A trip as its row holds it.
package struct TripRow: Sendable {
    package var trip: Trip
    /// The live fields in `trip` may be stale: read them from the vehicle row
    /// (``Trip/withProgress(of:)``; SQLite migration 0006 says why).
    package var progressFromVehicle: Bool

    package init(trip: Trip, progressFromVehicle: Bool) {
        self.trip = trip
        self.progressFromVehicle = progressFromVehicle
    }

    /// The trip as its row stores it. Where the live fields are read from the vehicle row,
    /// those that ``Trip/withProgress(of:)`` always takes from the vehicle whole (the route
    /// segment, the remaining waypoints with their paths, the first leg's traffic) are left
    /// out: on a long route they made every trip row as long as the route twice over, for a
    /// reader that never looks at them (issue 30).
    package var storedTrip: Trip {
        guard progressFromVehicle else { return trip }
        var stored = trip
        stored.remainingWaypoints = []
        stored.currentRouteSegment = nil
        stored.currentRouteSegmentTraffic = nil
        return stored
    }

    /// The row as the database holds it (``storedTrip``): what a read of it decodes.
    package var asStored: TripRow {
        progressFromVehicle ? TripRow(trip: storedTrip, progressFromVehicle: true) : self
    }
}

/// The decoded-row caches of one store (a class, so a transaction that holds it fits an
/// existential's inline buffer: no allocation per write), within the pool of the process's
/// cache budget.
package final class DecodedRowCaches: Sendable {
    package let vehicles: VersionedCache<VehicleRecord>
    package let trips: VersionedCache<TripRow>
    /// Trips as riders read them (live fields from the vehicle), by trip and the vehicle row's
    /// version; the revision holds the trip row's. Filled by reads, which see committed data.
    package let composedTrips: VersionedCache<Revisioned<Trip>>

    /// The pool the caches share.
    private let pool: CachePool

    /// Caches of decoded vehicles, trips and composed trips in `budget`'s pool.
    package init(budget: CacheBudget) {
        pool = budget.caches
        vehicles = VersionedCache(pool: budget.caches, name: "decoded_vehicles")
        trips = VersionedCache(pool: budget.caches, name: "decoded_trips")
        composedTrips = VersionedCache(pool: budget.caches, name: "composed_trips")
    }

    /// Stores a decoded vehicle; without the stretch of route it keeps between updates
    /// (``VehicleRecord/withoutKeptStretch``) once the pool is full. A 500-point route's kept
    /// stretch was half a decoded vehicle's bytes: where the budget cannot hold the whole
    /// fleet, it holds about twice as many vehicles without them, and an update of a vehicle
    /// held without its stretch measures the stretch it needs, where one of a vehicle not held
    /// reads and decodes its rows on SQLite's writer. That pays where the vehicles' trips are
    /// held as well (docs/performance.md, stop 57).
    private func storeVehicle(_ record: VehicleRecord, for key: String, version: Int64) {
        vehicles.store(pool.isFull ? record.withoutKeptStretch : record, for: key, version: version)
    }

    /// Applies a committed write's changes.
    package func apply(_ updates: [CacheUpdate]) {
        for update in updates {
            switch update {
            case .vehicle(let key, let version, let record): storeVehicle(record, for: key, version: version)
            // As the row stores it, as a read would decode it: a written trip whose live fields
            // come from its vehicle held its remaining waypoints' paths and route segment, some
            // 2.5 KB of a 500-point route's 3.4 KB, which no reader of the row looks at.
            case .trip(let key, let version, let row): trips.store(row.asStored, for: key, version: version)
            case .removeVehicle(let key): vehicles.remove(key)
            case .removeTrip(let key):
                trips.remove(key)
                composedTrips.remove(key)
            }
        }
    }
}

/// A change to the caches, applied once the data it describes is committed (a rolled-back
/// write must never reach them).
package enum CacheUpdate: Sendable {
    case vehicle(String, Int64, VehicleRecord)
    case trip(String, Int64, TripRow)
    case removeVehicle(String)
    case removeTrip(String)
}
