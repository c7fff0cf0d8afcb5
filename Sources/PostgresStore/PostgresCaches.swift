// Decoded rows by key and row version, as in the SQLite store. Another process may write
// any row at any time, so an entry is only ever used for the version the database returned
// in the same statement: every read asks the database for the row's current version (and
// for its body only when the cache does not hold that version). A write elsewhere moves the
// version, and the next read here decodes the new body: the caches cannot serve stale rows.

import Caching
import TripModel
import TripStore

/// A decoded value cached under the row version it was decoded from.
struct VersionedCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var version: Int64
        var value: Value
    }

    private let entries: BoundedCache<String, Entry>

    init(capacity: Int) { entries = BoundedCache(capacity: capacity) }

    /// The value, when the cache holds exactly `version`.
    func value(for key: String, version: Int64) -> Value? {
        guard let entry = entries.value(forKey: key), entry.version == version else { return nil }
        return entry.value
    }

    /// The version held for `key`, if any (sent with a read, so the body comes back only
    /// when it changed).
    func version(for key: String) -> Int64? { entries.value(forKey: key)?.version }

    func store(_ value: Value, for key: String, version: Int64) {
        entries.setValue(Entry(version: version, value: value), forKey: key)
    }

    func remove(_ key: String) { entries.removeValue(forKey: key) }
}

/// A trip as its row holds it.
struct TripRow: Sendable {
    var trip: Trip
    /// The live fields in `trip` may be stale: read them from the vehicle row.
    var progressFromVehicle: Bool
}

/// The decoded-row caches of one store.
final class PostgresCaches: Sendable {
    let vehicles = VersionedCache<VehicleRecord>(capacity: 20_000)
    let trips = VersionedCache<TripRow>(capacity: 20_000)
    /// Trips as riders read them (live fields from the vehicle), by trip and the vehicle row's
    /// version; the revision holds the trip row's.
    let composedTrips = VersionedCache<Revisioned<Trip>>(capacity: 20_000)

    func apply(_ updates: [CacheUpdate]) {
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

/// A change to the caches, applied once the data it describes is committed.
enum CacheUpdate: Sendable {
    case vehicle(String, Int64, VehicleRecord)
    case trip(String, Int64, TripRow)
    case removeVehicle(String)
    case removeTrip(String)
}
