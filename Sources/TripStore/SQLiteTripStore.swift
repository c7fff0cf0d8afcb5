import Foundation
import GRDB
import TripModel

/// The embedded store: SQLite through GRDB's `DatabasePool` in WAL mode, so readers never
/// wait for the writer. Commits are durable against process crashes (`synchronous=NORMAL`
/// in WAL mode: a power cut may lose the last transactions, a `kill -9` loses nothing
/// acknowledged).
public final class SQLiteTripStore: TripStore {
    let pool: DatabasePool
    let clock: WallClock
    let caches = SQLiteCaches()
    private let groupCommit: GroupCommit
    private let checkpointer: WALCheckpointer
    /// The migrations this opening applied (empty when the schema was current).
    public let newlyAppliedMigrations: [String]

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    public init(path: String, clock: WallClock = .system) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerThresholdPages)")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        groupCommit = GroupCommit(pool: pool)
        self.clock = clock
        let migrator = try Migrations.migrator()
        let before = try pool.read { db in try migrator.appliedMigrations(db) }
        try migrator.migrate(pool)
        let after = try pool.read { db in try migrator.appliedMigrations(db) }
        newlyAppliedMigrations = after.filter { !before.contains($0) }
        checkpointer = try WALCheckpointer(path: path)
    }

    /// The migrations already applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try pool.read { db in try Migrations.migrator().appliedMigrations(db) }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// Runs `body` in a write transaction, shared with the other writes waiting at the same
    /// time (see ``GroupCommit``); returns once that transaction has committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction, Timestamp) throws -> T) async throws -> T {
        let now = clock.now
        let caches = caches
        return try await withCheckedThrowingContinuation { continuation in
            groupCommit.enqueue(GroupCommit.Job(run: { db in
                let state = WriteState()
                let outcome: Result<T, any Error>
                do {
                    outcome = .success(try Self.inSavepoint(db) { try body(SQLiteTransaction(db: db, caches: caches, write: state), now) })
                } catch {
                    outcome = .failure(error)
                }
                // A rolled-back write must never reach the cache.
                let updates: [CacheUpdate]
                if case .success = outcome { updates = state.cacheUpdates } else { updates = [] }
                return { commitError in
                    if let commitError { return continuation.resume(throwing: commitError) }
                    caches.apply(updates)
                    continuation.resume(with: outcome)
                }
            }, fail: { error in continuation.resume(throwing: error) }))
        }
    }

    /// Runs `body` in a savepoint of the open transaction, rolled back if it throws. The
    /// statements are prepared once per connection: GRDB's `inSavepoint` parses them anew
    /// for every write (4% of the writer's time under load).
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT write").execute()
        do {
            let value = try body()
            try db.cachedStatement(sql: "RELEASE write").execute()
            return value
        } catch {
            // Without a transaction (SQLite rolled it all back) there is nothing to undo here;
            // the group commit notices and fails the batch.
            if db.isInsideTransaction {
                try db.cachedStatement(sql: "ROLLBACK TO write").execute()
                try db.cachedStatement(sql: "RELEASE write").execute()
            }
            throw error
        }
    }

    /// Reads run on the calling thread: a read of a cached row is a few microseconds of CPU,
    /// and hopping to GRDB's reader queue and back cost more than the read (measured with
    /// wrk: two context switches per request dominated `GET trip`). WAL readers never wait
    /// for the writer, so this does not block.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        try readHere(body)
    }

    /// A read of a single statement, outside any transaction (SQLite reads one statement
    /// from one snapshot anyway).
    private func readOneStatement<T>(_ body: (SQLiteTransaction) throws -> T) throws -> T {
        try pool.unsafeRead { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) }
    }

    /// The synchronous read (a non-async function, so GRDB's synchronous overload is chosen).
    private func readHere<T>(_ body: (SQLiteTransaction) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) }
    }

    public func createVehicle(provider: String, id: String, input: Vehicle) async throws -> Vehicle {
        try await write { tx, now in try FleetWrites.createVehicle(tx, provider: provider, id: id, input: input, now: now) }
    }

    public func vehicle(provider: String, id: String) async throws -> Vehicle {
        let record = try await read { tx in try tx.vehicleRecord(provider: provider, id: id) }
        guard let record else { throw FleetError(.notFound, "vehicle '\(id)' does not exist") }
        return record.vehicle
    }

    public func updateVehicle(provider: String, id: String, input: Vehicle, mask: FieldMask,
                              hook: (any VehicleUpdateHook)?) async throws -> Vehicle {
        try await write { tx, now in
            try FleetWrites.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now, hook: hook).vehicle
        }
    }

    public func updateVehicleJSON(provider: String, id: String, input: Vehicle, mask: FieldMask,
                                  hook: (any VehicleUpdateHook)?) async throws -> [UInt8] {
        try await write { tx, now in
            let written = try FleetWrites.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now, hook: hook)
            return try written.json ?? JSONStreamEncoder().encode(written.vehicle)
        }
    }

    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter()
        return try await read { tx in
            let rows = try Row.fetchAll(tx.db, sql: """
                SELECT vehicle_id, body FROM vehicles WHERE provider = ? AND vehicle_id > ? ORDER BY vehicle_id LIMIT ?
                """, arguments: [provider, after ?? "", page.pageSize + 1])
            return try Self.page(rows, size: page.pageSize, id: "vehicle_id") { row throws in
                try SQLiteTransaction.decode(Vehicle.self, row["body"])
            }
        }
    }

    public func searchVehicles(provider: String, query: VehicleSearchQuery) async throws -> [VehicleMatch] {
        let now = clock.now
        return try await read { tx in
            let box = query.searchBounds
            let rows = try Row.fetchAll(tx.db, sql: """
                SELECT vehicle_id, body FROM vehicles
                WHERE provider = ? AND vehicle_state = 'ONLINE' AND latitude_cell BETWEEN ? AND ? AND longitude_cell BETWEEN ? AND ?
                    AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                """, arguments: [provider, PositionCell.latitudeCell(box.south), PositionCell.latitudeCell(box.north),
                                 PositionCell.longitudeCell(box.west), PositionCell.longitudeCell(box.east),
                                 box.south, box.north, box.west, box.east])
            var matches: [VehicleMatch] = []
            for row in rows {
                let vehicle = try SQLiteTransaction.decode(Vehicle.self, row["body"])
                let seats = try tx.unfinishedTrips(provider: provider, vehicleId: row["vehicle_id"])
                    .reduce(0) { $0 + ($1.numberOfPassengers ?? 1) }
                if let match = query.match(vehicle, seatsTaken: seats, now: now) { matches.append(match) }
            }
            return query.rank(matches)
        }
    }

    public func deleteVehicle(provider: String, id: String) async throws {
        try await write { tx, _ in try FleetWrites.deleteVehicle(tx, provider: provider, id: id) }
    }

    public func createTrip(provider: String, id: String, input: Trip, hook: (any VehicleUpdateHook)?) async throws -> Trip {
        try await write { tx, now in
            try FleetWrites.createTrip(tx, provider: provider, id: id, input: input, now: now, hook: hook)
        }
    }

    public func trip(provider: String, id: String) async throws -> Trip {
        try await revisionedTrip(provider: provider, id: id).value
    }

    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip> {
        // No transaction: BEGIN/COMMIT cost more than the read, and each of its statements
        // reads the trip and its vehicle from one snapshot.
        let trip = try readOneStatement { tx in try tx.revisionedTrip(provider: provider, id: id) }
        guard let trip else { throw FleetError(.notFound, "trip '\(id)' does not exist") }
        return trip
    }

    public func updateTrip(provider: String, id: String, input: Trip, mask: FieldMask,
                           hook: (any VehicleUpdateHook)?) async throws -> Trip {
        try await write { tx, now in
            try FleetWrites.updateTrip(tx, provider: provider, id: id, input: input, mask: mask, now: now, hook: hook)
        }
    }

    public func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip> {
        let after = try query.page.startAfter()
        return try await read { tx in
            var sql = "SELECT trip_id FROM trips WHERE provider = ? AND trip_id > ?"
            var arguments: StatementArguments = [provider, after ?? ""]
            if let vehicleId = query.vehicleId {
                sql += " AND vehicle_id = ?"
                arguments += [vehicleId]
            }
            if query.activeTripsOnly { sql += " AND unfinished = 1" }
            sql += " ORDER BY trip_id LIMIT ?"
            arguments += [query.page.pageSize + 1]
            let rows = try Row.fetchAll(tx.db, sql: sql, arguments: arguments)
            // Read one by one as riders see them (live fields from the vehicle where the
            // row says so), from this transaction's snapshot and the decoded caches.
            return try Self.page(rows, size: query.page.pageSize, id: "trip_id") { row throws in
                let id: String = row["trip_id"]
                guard let trip = try tx.trip(provider: provider, id: id) else { throw FleetError(.internal, "trip '\(id)' vanished") }
                return trip
            }
        }
    }

    public func deleteTrip(provider: String, id: String) async throws {
        try await write { tx, now in try FleetWrites.deleteTrip(tx, provider: provider, id: id, now: now) }
    }

    public func providers(ofTrip tripId: String) async throws -> [String] {
        try await read { tx in
            try String.fetchAll(tx.db, sql: "SELECT DISTINCT provider FROM trips WHERE trip_id = ? ORDER BY provider", arguments: [tripId])
        }
    }

    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        try await read { tx in
            let rows = try EventBlocks.select(tx.db, filter: filter, after: afterID, limit: limit)
            return rows.map { row in
                let tripIds: String = row["trip_ids"]
                return StoredEvent(id: row["id"], time: Timestamp(microseconds: row["time_us"]), provider: row["provider"],
                                   vehicleId: row["vehicle_id"], tripIds: tripIds.isEmpty ? [] : tripIds.split(separator: ",").map(String.init),
                                   type: row["type"], data: row["data"])
            }
        }
    }

    public func latestEventID() async throws -> Int64 {
        try await read { tx in try EventBlocks.latestID(tx.db) }
    }

    public func locationHistory(provider: String, vehicleId: String, limit: Int) async throws -> [VehicleLocation] {
        try await read { tx in
            let statement = try tx.db.cachedStatement(sql: "SELECT history_after_event FROM vehicles WHERE provider = ? AND vehicle_id = ?")
            let start = try Int64.fetchOne(statement, arguments: [provider, vehicleId])
            guard let start else { return [] }
            let rows = try EventBlocks.newest(tx.db, provider: provider, vehicleId: vehicleId, type: Events.vehicleLocation,
                                              after: start, limit: min(limit, LocationHistory.maximumLength))
            return try rows.reversed().map { row in try LocationHistory.location(fromEventData: row["data"]) }
        }
    }

    public func updateNavigator(provider: String, vehicleId: String,
                                change: @escaping @Sendable (inout VehicleChange) throws -> [NewEvent]) async throws -> Vehicle {
        try await write { tx, now in try FleetWrites.updateNavigator(tx, provider: provider, id: vehicleId, now: now, change: change) }
    }

    public func readNavigator<T: Sendable>(provider: String, vehicleId: String,
                                           _ body: @escaping @Sendable (Vehicle, StoredNavigator) throws -> T) async throws -> T {
        try await read { tx in
            let (vehicle, navigator) = try FleetWrites.storedNavigator(tx, provider: provider, id: vehicleId)
            return try body(vehicle, navigator)
        }
    }

    /// Appends events outside any resource write (the navigator's), in one transaction.
    public func appendEvents(provider: String, _ events: [NewEvent]) async throws {
        try await write { tx, _ in for event in events { try tx.appendEvent(provider: provider, event) } }
    }

    private static func page<Item>(_ rows: [Row], size: Int, id: String, item: (Row) throws -> Item) throws -> Page<Item> {
        let items = try rows.prefix(size).map(item)
        let next = rows.count > size ? rows[size - 1][id] as String? : nil
        return Page(items: items, nextPageToken: next.map(PageToken.encode))
    }
}
