import Foundation
import GRDB
import TripModel

/// ``FleetTransaction`` on one GRDB database connection, inside its transaction.
struct SQLiteTransaction: FleetTransaction {
    let db: Database
    let caches: SQLiteCaches
    /// In a write transaction, cache updates wait here until the transaction commits: a
    /// rolled-back write must never reach the cache.
    let deferred: DeferredCacheUpdates?

    /// Locations kept per vehicle.
    static let historyLength = 1_000

    static func decode<T: Decodable>(_ type: T.Type, _ body: String) throws -> T {
        do {
            return try StrictJSONDecoder().decode(type, from: body.utf8, root: "stored")
        } catch {
            throw FleetError(.internal, "the stored \(T.self) cannot be read: \(error)")
        }
    }

    static func encode(_ value: some Encodable) throws -> String {
        try FleetJSON.encodeText(value)
    }

    private func cache(_ update: CacheUpdate) {
        if let deferred { deferred.updates.append(update) } else { caches.apply([update]) }
    }

    /// Reads a vehicle, decoding it only when the cache lacks its current version. The
    /// version is read first, alone: copying a body out of SQLite costs more than the read
    /// when the decoded row is cached, which under load it nearly always is.
    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? {
        let key = provider + "/" + id
        let versionOnly = try db.cachedStatement(sql: "SELECT row_version FROM vehicles WHERE provider = ? AND vehicle_id = ?")
        guard let current = try Int64.fetchOne(versionOnly, arguments: [provider, id]) else { return nil }
        if let cached = caches.vehicles.value(for: key, version: current) { return cached }
        let statement = try db.cachedStatement(sql: """
            SELECT row_version, body, tracking, navigator_state, navigator_route_version FROM vehicles
            WHERE provider = ? AND vehicle_id = ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [provider, id]) else { return nil }
        let version: Int64 = row["row_version"]
        let state: Data? = row["navigator_state"]
        let record = VehicleRecord(vehicle: try Self.decode(Vehicle.self, row["body"]),
                                   tracking: try Self.decode(RouteTracking.self, row["tracking"]),
                                   navigator: NavigatorRecord(state: state.map { [UInt8]($0) },
                                                              routeVersion: row["navigator_route_version"]))
        cache(.vehicle(key, version, record))
        return record
    }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, body, tracking,
                                  navigator_state, navigator_route_version)
            VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
            """)
        let location = record.vehicle.lastLocation?.location
        try statement.execute(arguments: [provider, id, record.vehicle.vehicleState?.rawValue, location?.latitude,
                                          location?.longitude, try Self.encode(record.vehicle), try Self.encode(record.tracking),
                                          record.navigator.state.map { Data($0) }, record.navigator.routeVersion])
        cache(.vehicle(provider + "/" + id, 1, record))
    }

    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        let statement = try db.cachedStatement(sql: """
            UPDATE vehicles SET row_version = row_version + 1, vehicle_state = ?, latitude = ?, longitude = ?, body = ?, tracking = ?,
                navigator_state = ?, navigator_route_version = ?
            WHERE provider = ? AND vehicle_id = ? RETURNING row_version
            """)
        let location = record.vehicle.lastLocation?.location
        let body = try JSONStreamEncoder().encode(record.vehicle)
        let version = try Int64.fetchOne(statement, arguments: [
            record.vehicle.vehicleState?.rawValue, location?.latitude, location?.longitude,
            String(decoding: body, as: UTF8.self), try Self.encode(record.tracking),
            record.navigator.state.map { Data($0) }, record.navigator.routeVersion, provider, id])
        if let version { cache(.vehicle(provider + "/" + id, version, record)) }
        return body
    }

    func deleteVehicle(provider: String, id: String) throws {
        try db.execute(sql: """
            DELETE FROM vehicle_locations WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)
            """, arguments: [provider, id])
        try db.execute(sql: """
            DELETE FROM navigator_routes WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)
            """, arguments: [provider, id])
        try db.execute(sql: "DELETE FROM vehicles WHERE provider = ? AND vehicle_id = ?", arguments: [provider, id])
        cache(.removeVehicle(provider + "/" + id))
    }

    func trip(provider: String, id: String) throws -> Trip? {
        try revisionedTrip(provider: provider, id: id)?.value
    }

    /// Reads a trip like ``vehicleRecord(provider:id:)``: version first, body only on a
    /// cache miss. Outside a transaction the two statements may see different commits, so
    /// a decoded body is filed under the version read with it.
    func revisionedTrip(provider: String, id: String) throws -> Revisioned<Trip>? {
        let key = provider + "/" + id
        let versionOnly = try db.cachedStatement(sql: "SELECT row_version FROM trips WHERE provider = ? AND trip_id = ?")
        guard let current = try Int64.fetchOne(versionOnly, arguments: [provider, id]) else { return nil }
        if let cached = caches.trips.value(for: key, version: current) { return Revisioned(value: cached, revision: current) }
        let statement = try db.cachedStatement(sql: "SELECT row_version, body FROM trips WHERE provider = ? AND trip_id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [provider, id]) else { return nil }
        let version: Int64 = row["row_version"]
        let trip = try Self.decode(Trip.self, row["body"])
        cache(.trip(key, version, trip))
        return Revisioned(value: trip, revision: version)
    }

    func insertTrip(provider: String, id: String, _ trip: Trip) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO trips (provider, trip_id, row_version, vehicle_id, trip_status, unfinished, body) VALUES (?, ?, 1, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [provider, id, trip.vehicleId, trip.tripStatus.rawValue,
                                          !trip.tripStatus.isTerminal, try Self.encode(trip)])
        cache(.trip(provider + "/" + id, 1, trip))
    }

    func updateTrip(provider: String, id: String, _ trip: Trip) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE trips SET row_version = row_version + 1, vehicle_id = ?, trip_status = ?, unfinished = ?, body = ?
            WHERE provider = ? AND trip_id = ? RETURNING row_version
            """)
        let version = try Int64.fetchOne(statement, arguments: [trip.vehicleId, trip.tripStatus.rawValue, !trip.tripStatus.isTerminal,
                                                                try Self.encode(trip), provider, id])
        if let version { cache(.trip(provider + "/" + id, version, trip)) }
    }

    func deleteTrip(provider: String, id: String) throws {
        try db.execute(sql: "DELETE FROM trips WHERE provider = ? AND trip_id = ?", arguments: [provider, id])
        cache(.removeTrip(provider + "/" + id))
    }

    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip] {
        let statement = try db.cachedStatement(sql: """
            SELECT trip_id, row_version FROM trips WHERE provider = ? AND vehicle_id = ? AND unfinished = 1 ORDER BY id
            """)
        return try Row.fetchAll(statement, arguments: [provider, vehicleId]).compactMap { row in
            let id: String = row["trip_id"]
            if let cached = caches.trips.value(for: provider + "/" + id, version: row["row_version"]) { return cached }
            return try revisionedTrip(provider: provider, id: id)?.value
        }
    }

    func appendLocation(provider: String, vehicleId: String, _ location: VehicleLocation) throws {
        // The next sequence number comes from the history's own primary key: keeping a
        // counter in the vehicle row would rewrite that large row a second time per update.
        let insert = try db.cachedStatement(sql: """
            INSERT INTO vehicle_locations (vehicle, seq, body)
            SELECT id, COALESCE((SELECT MAX(seq) FROM vehicle_locations WHERE vehicle = vehicles.id), 0) + 1, ?
            FROM vehicles WHERE provider = ? AND vehicle_id = ?
            RETURNING vehicle, seq
            """)
        guard let row = try Row.fetchOne(insert, arguments: [try Self.encode(location), provider, vehicleId]) else { return }
        let vehicle: Int64 = row["vehicle"]
        let seq: Int64 = row["seq"]
        // Trim in batches: one delete per hundred inserts keeps the history bounded cheaply.
        if seq % 100 == 0 {
            try db.execute(sql: "DELETE FROM vehicle_locations WHERE vehicle = ? AND seq <= ?",
                           arguments: [vehicle, seq - Int64(Self.historyLength)])
        }
    }

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        let statement = try db.cachedStatement(sql: """
            SELECT body FROM navigator_routes WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)
            """)
        return try Data.fetchOne(statement, arguments: [provider, vehicleId]).map { [UInt8]($0) }
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        let vehicle = "(SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)"
        guard let route else {
            try db.execute(sql: "DELETE FROM navigator_routes WHERE vehicle = \(vehicle)", arguments: [provider, vehicleId])
            return
        }
        try db.execute(sql: "INSERT OR REPLACE INTO navigator_routes (vehicle, body) VALUES (\(vehicle), ?)",
                       arguments: [provider, vehicleId, Data(route)])
    }

    func appendEvent(provider: String, _ event: NewEvent) throws {
        let insert = try db.cachedStatement(sql: """
            INSERT INTO events (time_us, provider, vehicle_id, type, data, trip_ids) VALUES (?, ?, ?, ?, ?, ?)
            """)
        try insert.execute(arguments: [event.time.microseconds, provider, event.vehicleId, event.type, event.data,
                                       event.tripIds.joined(separator: ",")])
        let id = db.lastInsertedRowID
        let audience = try db.cachedStatement(sql: "INSERT INTO event_trips (block, provider, trip_id, event_id) VALUES (?, ?, ?, ?)")
        for tripId in event.tripIds { try audience.execute(arguments: [EventBlocks.block(of: id), provider, tripId, id]) }
    }
}

/// The decoded-resource caches of one SQLite store.
struct SQLiteCaches: Sendable {
    let vehicles = DecodedCache<VehicleRecord>(capacity: 20_000)
    let trips = DecodedCache<Trip>(capacity: 20_000)

    func apply(_ updates: [CacheUpdate]) {
        for update in updates {
            switch update {
            case .vehicle(let key, let version, let record): vehicles.store(record, for: key, version: version)
            case .trip(let key, let version, let trip): trips.store(trip, for: key, version: version)
            case .removeVehicle(let key): vehicles.remove(key)
            case .removeTrip(let key): trips.remove(key)
            }
        }
    }
}

/// A change to the caches, applied once the data it describes is committed.
enum CacheUpdate: Sendable {
    case vehicle(String, Int64, VehicleRecord)
    case trip(String, Int64, Trip)
    case removeVehicle(String)
    case removeTrip(String)
}

/// Cache updates collected during a write transaction.
final class DeferredCacheUpdates {
    var updates: [CacheUpdate] = []
}
