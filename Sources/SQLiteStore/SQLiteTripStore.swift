import Foundation
import GRDB
import Geo
import TripModel
import TripStore

/// The embedded store: SQLite through GRDB's `DatabasePool` in WAL mode, so readers never
/// wait for the writer. Commits are durable against process crashes (`synchronous=NORMAL`
/// in WAL mode: a power cut may lose the last transactions, a `kill -9` loses nothing
/// acknowledged).
public final class SQLiteTripStore: TripStore {
    let pool: DatabasePool
    let caches = SQLiteCaches()
    private let groupCommit: GroupCommit
    private let checkpointer: WALCheckpointer
    /// The migrations this opening applied (empty when the schema was current).
    public let newlyAppliedMigrations: [String]

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = 8
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerThresholdPages)")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        groupCommit = GroupCommit(pool: pool)
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
    /// time (see ``GroupCommit``), each in its own savepoint; returns once that transaction
    /// has committed.
    public func writeTransaction(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws {
        try await writeSQL { tx in try body(tx) }
    }

    /// ``writeTransaction(_:)`` with the concrete transaction and a result, for what only SQL
    /// can say (styles).
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        let caches = caches
        return try await withCheckedThrowingContinuation { continuation in
            groupCommit.enqueue(
                GroupCommit.Job(
                    run: { db in
                        let state = WriteState()
                        let outcome: Result<T, any Error>
                        do {
                            outcome = .success(try Self.inSavepoint(db) { try body(SQLiteTransaction(db: db, caches: caches, write: state)) })
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
    public func readSnapshot(_ body: @escaping @Sendable (any StoreReader) throws -> Void) async throws {
        try readHere(body)
    }

    /// A read of a single statement, outside any transaction (SQLite reads one statement
    /// from one snapshot anyway).
    private func readOneStatement<T>(_ body: (SQLiteTransaction) throws -> T) throws -> T {
        try pool.unsafeRead { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) }
    }

    /// The synchronous read (a non-async function, so GRDB's synchronous overload is chosen).
    func readHere<T>(_ body: (SQLiteTransaction) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) }
    }

    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter()
        return try readHere { tx in
            let rows = try Row.fetchAll(
                tx.db,
                sql: """
                    SELECT vehicle_id, body FROM vehicles WHERE provider = ? AND vehicle_id > ? ORDER BY vehicle_id LIMIT ?
                    """, arguments: [provider, after ?? "", page.pageSize + 1])
            return try Self.page(rows, size: page.pageSize, id: "vehicle_id") { row throws in
                try SQLiteTransaction.decode(Vehicle.self, row["body"])
            }
        }
    }

    public func onlineVehicles(provider: String, within box: GeoBounds) async throws -> [VehicleWithTrips] {
        try readHere { tx in
            let rows = try Row.fetchAll(
                tx.db,
                sql: """
                    SELECT vehicle_id, body FROM vehicles
                    WHERE provider = ? AND vehicle_state = 'ONLINE' AND latitude_cell BETWEEN ? AND ? AND longitude_cell BETWEEN ? AND ?
                        AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                    ORDER BY vehicle_id
                    """,
                arguments: [
                    provider, PositionCell.latitudeCell(box.south), PositionCell.latitudeCell(box.north),
                    PositionCell.longitudeCell(box.west), PositionCell.longitudeCell(box.east),
                    box.south, box.north, box.west, box.east,
                ])
            return try rows.map { row in
                VehicleWithTrips(
                    vehicle: try SQLiteTransaction.decode(Vehicle.self, row["body"]),
                    unfinishedTrips: try tx.unfinishedTrips(provider: provider, vehicleId: row["vehicle_id"]))
            }
        }
    }

    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>? {
        // No transaction: BEGIN/COMMIT cost more than the read, and each of its statements
        // reads the trip and its vehicle from one snapshot.
        try readOneStatement { tx in try tx.revisionedTrip(provider: provider, id: id) }
    }

    public func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip> {
        let after = try query.page.startAfter()
        return try readHere { tx in
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

    public func providers(ofTrip tripId: String) async throws -> [String] {
        try readHere { tx in
            try String.fetchAll(tx.db, sql: "SELECT DISTINCT provider FROM trips WHERE trip_id = ? ORDER BY provider", arguments: [tripId])
        }
    }

    public func providers(ofVehicle vehicleId: String) async throws -> [String] {
        try readHere { tx in
            try String.fetchAll(
                tx.db, sql: "SELECT DISTINCT provider FROM vehicles WHERE vehicle_id = ? ORDER BY provider", arguments: [vehicleId])
        }
    }

    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        try readHere { tx in try EventBlocks.select(tx.db, filter: filter, after: afterID, limit: limit).map(Self.event) }
    }

    public func latestEventID() async throws -> Int64 {
        try readHere { tx in try EventBlocks.latestID(tx.db) }
    }

    public func newestEvents(provider: String, vehicleId: String, type: String, limit: Int) async throws -> [StoredEvent] {
        try readHere { tx in
            let statement = try tx.db.cachedStatement(sql: "SELECT history_after_event FROM vehicles WHERE provider = ? AND vehicle_id = ?")
            guard let start = try Int64.fetchOne(statement, arguments: [provider, vehicleId]) else { return [] }
            let rows = try EventBlocks.newest(tx.db, provider: provider, vehicleId: vehicleId, type: type, after: start, limit: limit)
            return rows.reversed().map(Self.event)
        }
    }

    /// An event as its row holds it.
    private static func event(_ row: Row) -> StoredEvent {
        let tripIds: String = row["trip_ids"]
        return StoredEvent(
            id: row["id"], time: Timestamp(microseconds: row["time_us"]), provider: row["provider"],
            vehicleId: row["vehicle_id"], tripIds: tripIds.isEmpty ? [] : tripIds.split(separator: ",").map(String.init),
            type: row["type"], data: row["data"])
    }

    private static func page<Item>(_ rows: [Row], size: Int, id: String, item: (Row) throws -> Item) throws -> Page<Item> {
        let items = try rows.prefix(size).map(item)
        let next = rows.count > size ? rows[size - 1][id] as String? : nil
        return Page(items: items, nextPageToken: next.map(PageToken.encode))
    }
}
