// Decoded rows by key and row version, shared by the SQLite and PostgreSQL stores, so a read
// of an unchanged row skips JSON decoding. An entry is only ever used for the version the
// database returned in the same transaction or statement: a write elsewhere (another
// connection, another process) moves the version, and the next read decodes the new body, so
// the caches can never serve a stale row.

import Caching
import TripModel

/// A decoded value cached under the row version it was decoded from.
package struct VersionedCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var version: Int64
        var value: Value
    }

    private let entries: BoundedCache<String, Entry>

    package init(capacity: Int) { entries = BoundedCache(capacity: capacity) }

    /// The value, when the cache holds exactly `version`.
    package func value(for key: String, version: Int64) -> Value? {
        guard let entry = entries.value(forKey: key), entry.version == version else { return nil }
        return entry.value
    }

    /// The version held for `key`, if any (a read may send it, so that the body comes back
    /// only when it changed).
    package func version(for key: String) -> Int64? { entries.value(forKey: key)?.version }

    package func store(_ value: Value, for key: String, version: Int64) {
        entries.setValue(Entry(version: version, value: value), forKey: key)
    }

    package func remove(_ key: String) { entries.removeValue(forKey: key) }
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
}

/// The decoded-row caches of one store (a class, so a transaction that holds it fits an
/// existential's inline buffer: no allocation per write).
package final class DecodedRowCaches: Sendable {
    package let vehicles = VersionedCache<VehicleRecord>(capacity: 20_000)
    package let trips = VersionedCache<TripRow>(capacity: 20_000)
    /// Trips as riders read them (live fields from the vehicle), by trip and the vehicle row's
    /// version; the revision holds the trip row's. Filled by reads, which see committed data.
    package let composedTrips = VersionedCache<Revisioned<Trip>>(capacity: 20_000)

    package init() {}

    /// Applies a committed write's changes.
    package func apply(_ updates: [CacheUpdate]) {
        for update in updates {
            switch update {
            case .vehicle(let key, let version, let record): vehicles.store(record, for: key, version: version)
            case .trip(let key, let version, let trip): trips.store(trip, for: key, version: version)
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
