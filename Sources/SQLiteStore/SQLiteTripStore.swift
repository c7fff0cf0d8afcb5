import Caching
import Foundation
import GRDB
import Geo
import Synchronization
import TripModel
import TripStore

/// The embedded store: SQLite through GRDB's `DatabasePool` in WAL mode, so readers never
/// wait for the writer. Commits are durable against process crashes (`synchronous=NORMAL`
/// in WAL mode: a power cut may lose the last transactions, a `kill -9` loses nothing
/// acknowledged). Storage failures (a full disk, an I/O error) answer `UNAVAILABLE` and are
/// recorded in ``health``; nothing is acknowledged before it is committed.
public final class SQLiteTripStore: TripStore, TripRevisionFirstReads {
    let pool: DatabasePool
    let caches: DecodedRowCaches
    /// Listings' counts, kept until a vehicle's listing columns change (migration 0019).
    let listingCounts = BoundedCache<ListingCountKey, ListingCount>(capacity: 256)
    public let health = StoreHealth()
    private let groupCommit: GroupCommit
    private let checkpointer: WALCheckpointer
    /// Where the store's reads wait while the writer starts the WAL over.
    private let readGate = ReadGate()
    /// What the writer does to keep the WAL file under its bound.
    package let walBound: WALBound
    /// The migrations this opening applied (empty when the schema was current).
    package let newlyAppliedMigrations: [String]
    /// The lock that makes this store the database's only writer, when it was opened as one.
    private let soleWriterLock: SoleWriterLock?
    /// The revisions of trips this store's commits keep current: only for the only writer.
    let committedRevisions: CommittedRevisions?
    /// How many of the only writer's reads of a trip for a caller that keeps its view (a
    /// rider's) went to SQLite; the others were answered from ``committedRevisions`` (tests).
    package let keptViewReadsOfSQLite = Atomic<Int>(0)

    /// The WAL bound's work so far (``WALBound/Counts``): a log that keeps missing its moment
    /// to start over shows as waits run out, and the writes it held back as seconds held.
    public var counters: [StoreCounter] {
        let counts = walBound.counts
        return [
            StoreCounter(
                name: "tripshare_sqlite_wal_restarts_total", help: "Times the SQLite writer started the WAL over at its size bound.",
                value: Double(counts.restarts)),
            StoreCounter(
                name: "tripshare_sqlite_wal_waits_run_out_total",
                help: "Times the SQLite writer's wait for readers on old snapshots ran out and the WAL kept growing.",
                value: Double(counts.waitsRunOut)),
            StoreCounter(
                name: "tripshare_sqlite_wal_writer_held_seconds_total",
                help: "Seconds the SQLite writer held writes back to start the WAL over, waits included.", value: counts.secondsHeld),
        ] + rehearsals.counters
    }

    /// How the location updates fared (``WriteRehearsal``).
    let rehearsals = RehearsalCounts()
    /// Each vehicle's unfinished trips, for its next location update's rehearsal.
    let unfinishedTripLists: UnfinishedTripLists
    /// Runs between a location update's rehearsal and its turn on the writer (tests: another
    /// write that changes its rows there).
    package let afterRehearsal = Mutex<(@Sendable () async -> Void)?>(nil)
    /// How many location updates were replayed, run again because their rows had changed,
    /// or not rehearsed (tests).
    package var rehearsalOutcomes: (replayed: Int, stale: Int, notRehearsed: Int) {
        (rehearsals.count(.replayed), rehearsals.count(.stale), rehearsals.count(.notRehearsed))
    }

    /// How many connections read at once (besides the one writer).
    static let readerCount = 8

    /// Opens (creating if needed) the database at `path` and applies pending migrations; its
    /// decoded rows go in `cacheBudget`'s pool and SQLite's page cache takes its share.
    /// `soleWriter` (a server): the store locks the database against every other store that
    /// asks the same, throwing ``DatabaseInUse`` if one has it, and then answers a rider's
    /// read of a trip whose view is kept without reading SQLite (``CommittedRevisions``).
    public convenience init(path: String, cacheBudget: CacheBudget = .standard, soleWriter: Bool = false) throws {
        try self.init(path: path, cacheBudget: cacheBudget, walLimits: .standard, soleWriter: soleWriter)
    }

    /// Opens the database at `path` with its WAL held to `walLimits`; the writer's waits for
    /// readers are spaced on `seconds` (a monotonic clock).
    package init(
        path: String, cacheBudget: CacheBudget = .standard, walLimits: WALLimits, soleWriter: Bool = false,
        seconds: @escaping @Sendable () -> Double = WALBound.uptime
    ) throws {
        soleWriterLock = soleWriter ? try SoleWriterLock(databasePath: path) : nil
        committedRevisions = soleWriter ? CommittedRevisions() : nil
        caches = DecodedRowCaches(budget: cacheBudget)
        unfinishedTripLists = UnfinishedTripLists(pool: cacheBudget.caches)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = Self.readerCount
        let pageCacheKiB = Self.pageCacheKiBPerConnection(cacheBudget)
        configuration.prepareDatabase { db in
            // Each connection keeps its own page cache: the share is split between the writer
            // and the readers (negative: a size in KiB rather than in pages).
            try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(WALCheckpointer.writerThresholdPages)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(walLimits.cutBackBytes)")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        let walBound = WALBound(databasePath: path, limits: walLimits, gate: readGate, seconds: seconds)
        self.walBound = walBound
        groupCommit = GroupCommit(pool: pool, afterTransaction: walBound.afterTransaction)
        let migrator = try Migrations.migrator()
        let before = try pool.read { db in try migrator.appliedMigrations(db) }
        try migrator.migrate(pool)
        let after = try pool.read { db in try migrator.appliedMigrations(db) }
        newlyAppliedMigrations = after.filter { !before.contains($0) }
        checkpointer = try WALCheckpointer(path: path, limits: walLimits)
    }

    /// The page cache of each connection, in KiB: the budget's share for database pages over
    /// the writer and the readers, and at least 512 KiB (128 pages), which keeps the upper
    /// levels of the indexes a request walks (a page read again comes from the operating
    /// system's file cache). SQLite's own default, 2 MB a connection, put 18 MB of the
    /// process's memory beyond a small budget (issue 30).
    static func pageCacheKiBPerConnection(_ budget: CacheBudget) -> Int {
        max(512, (budget.databasePages / (readerCount + 1)) >> 10)
    }

    /// The page cache SQLite keeps on the writer's connection and on a reader's, in KiB (what
    /// `PRAGMA cache_size` says, made positive).
    package func pageCacheKiB() throws -> (writer: Int, reader: Int) {
        let sizeOf = { (db: Database) throws -> Int in abs(try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0) }
        return (try pool.write(sizeOf), try pool.read(sizeOf))
    }

    /// The migrations already applied, oldest first.
    package func appliedMigrations() throws -> [String] {
        try pool.read { db in try Migrations.migrator().appliedMigrations(db) }
    }

    /// Runs `PRAGMA integrity_check`; "ok" when the file is sound.
    package func integrityCheck() throws -> String {
        try pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// Runs `body` in a write transaction, shared with the other writes waiting at the same
    /// time (see ``GroupCommit``), each in its own savepoint; returns once that transaction
    /// has committed.
    public func writeTransaction(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws {
        try await writeSQL { tx in try body(tx) }
    }

    /// A location update (`vehicle` given) is rehearsed here first, on the caller's thread
    /// (``WriteRehearsal``), and the writer only checks and replays it; any other write, or
    /// one whose rows changed since, runs on the writer as ``writeTransaction(_:)`` does.
    public func writeTransaction(
        readingVehicle vehicle: VehicleKey?, _ body: @escaping @Sendable (any StoreTransaction) throws -> Void
    ) async throws {
        guard let vehicle else { return try await writeTransaction(body) }
        let rehearsal = rehearse(body)
        if let hook = afterRehearsal.withLock({ $0 }) { await hook() }
        let rehearsals = rehearsals
        let unfinished = try await writeSQL { tx in
            if let rehearsal, try rehearsal.holds(in: tx) {
                try rehearsal.replay(in: tx)
                rehearsals.add(.replayed)
                if let known = rehearsal.unfinishedTripsAfterReplay(provider: vehicle.provider, vehicleId: vehicle.id) { return known }
            } else {
                rehearsals.add(rehearsal == nil ? .notRehearsed : .stale)
                try body(tx)
            }
            // What the next rehearsal of this vehicle starts from.
            return try tx.unfinishedTripVersions(provider: vehicle.provider, vehicleId: vehicle.id)
        }
        unfinishedTripLists.store(unfinished, of: vehicle.provider + "/" + vehicle.id)
    }

    /// Runs `body` as a ``WriteRehearsal``; nil when it could not be rehearsed (it abandoned,
    /// or failed: the writer finds out why, on current rows).
    private func rehearse(_ body: (any StoreTransaction) throws -> Void) -> WriteRehearsal? {
        let rehearsal = WriteRehearsal(caches: caches, unfinishedTripLists: unfinishedTripLists)
        do {
            try body(rehearsal)
            return rehearsal
        } catch {
            return nil
        }
    }

    /// ``writeTransaction(_:)`` with the concrete transaction and a result, for what only SQL
    /// can say (styles).
    func writeSQL<T: Sendable>(_ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        let caches = caches
        let committedRevisions = committedRevisions
        let answer = WriteAnswer(health: health)
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
                        let failure: (any Error)?
                        switch outcome {
                        case .success: (updates, failure) = (state.cacheUpdates, nil)
                        case .failure(let error): (updates, failure) = ([], error)
                        }
                        let completion: GroupCommit.Completion = { commitError in
                            if let commitError {
                                committedRevisions?.forgetAll()
                                return continuation.resume(throwing: answer.notCommitted(commitError))
                            }
                            caches.apply(updates)
                            committedRevisions?.apply(updates)
                            if case .success = outcome { answer.succeeded() }
                            continuation.resume(with: outcome.mapError(answer.committed))
                        }
                        return (completion, failure)
                    }, fail: { error in continuation.resume(throwing: answer.notCommitted(error)) }))
        }
    }

    /// Makes a write that needs a few new pages (16 KiB) and deletes it again: on a disk with
    /// no room left, or at the page limit, it fails as the API's writes do. Records the
    /// outcome in ``health`` like every write.
    public func probeWrites() async throws {
        try await writeSQL { tx in
            try tx.db.execute(sql: "INSERT INTO storage_probe (body) VALUES (zeroblob(16384))")
            try tx.db.execute(sql: "DELETE FROM storage_probe")
        }
    }

    /// Caps the database at `pages` pages of the writer's connection (SQLite's
    /// `max_page_count`; a cap below the current size leaves it at the current size), or lifts
    /// the cap with nil: a disk that fills up and frees again, for tests.
    package func limitPageCount(to pages: Int?) async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA max_page_count = \(pages ?? Int(Int32.max))")
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
        do {
            return try readGate.read { try pool.unsafeRead { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) } }
        } catch {
            throw StorageFailure.unavailable(error) ?? error
        }
    }

    /// The synchronous read (a non-async function, so GRDB's synchronous overload is chosen).
    func readHere<T>(_ body: (SQLiteTransaction) throws -> T) throws -> T {
        do {
            return try readGate.read { try pool.read { db in try body(SQLiteTransaction(db: db, caches: caches, write: nil)) } }
        } catch {
            throw StorageFailure.unavailable(error) ?? error
        }
    }

    /// Runs `body` inside a read transaction that has read from the database, as the store's
    /// reads do: for tests that keep reads open.
    package func holdingRead(_ body: () -> Void) throws {
        try readHere { tx in
            _ = try Int.fetchOne(tx.db, sql: "SELECT count(*) FROM storage_probe")
            body()
        }
    }

    public func listVehicles(provider: String, criteria: VehicleCriteria, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter()
        let condition = criteria.sqliteCondition()
        return try readHere { tx in
            // Both statements walk the listing index (migration 0016) without reading a row;
            // only the page's vehicles are read, most from the decoded cache.
            let rows = try Row.fetchAll(
                tx.db,
                sql: """
                    SELECT vehicle_id, row_version FROM vehicles WHERE provider = ? AND vehicle_id > ? AND \(condition.sql)
                    ORDER BY vehicle_id LIMIT ?
                    """, arguments: [provider, after ?? ""] + condition.arguments + [page.pageSize + 1])
            let total = try Self.listingCount(tx, provider: provider, criteria: criteria, condition: condition, kept: listingCounts)
            var listed = try Self.page(rows, size: page.pageSize, id: "vehicle_id") { row throws in
                try Self.vehicle(tx, provider: provider, id: row["vehicle_id"], version: row["row_version"])
            }
            listed.totalSize = total
            return listed
        }
    }

    public func searchVehicles(provider: String, criteria: VehicleCriteria) async throws -> [VehicleWithTrips] {
        let condition = criteria.sqliteCondition()
        return try readHere { tx in
            // The rows through a cursor (each read where SQLite holds it, not copied into a Row),
            // then the vehicles into an array of the right size: growing it would move every
            // vehicle, a large struct, at each doubling.
            let rows = try Row.fetchCursor(
                tx.db, sql: "SELECT vehicle_id, row_version FROM vehicles WHERE provider = ? AND \(condition.sql) ORDER BY vehicle_id",
                arguments: [provider] + condition.arguments)
            var found: [(id: String, version: Int64)] = []
            while let row = try rows.next() { found.append((row[0], row[1])) }
            return try found.map { id, version in
                let vehicle = try Self.vehicle(tx, provider: provider, id: id, version: version)
                let trips = vehicle.currentTrips.isEmpty ? [] : try tx.unfinishedTrips(provider: provider, vehicleId: id)
                return VehicleWithTrips(vehicle: vehicle, unfinishedTrips: trips)
            }
        }
    }

    /// The vehicle at `version`: from the decoded cache when it holds that version (only the
    /// vehicle is copied out, not its tracking and navigator), else read whole.
    private static func vehicle(_ tx: SQLiteTransaction, provider: String, id: String, version: Int64) throws -> Vehicle {
        if let cached = tx.caches.vehicles.value(for: provider + "/" + id, version: version, { $0.vehicle }) { return cached }
        guard let record = try tx.vehicleRecord(provider: provider, id: id) else { throw StatusError(.internal, "vehicle '\(id)' vanished") }
        return record.vehicle
    }

    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>? {
        // No transaction: BEGIN/COMMIT cost more than the read, and each of its statements
        // reads the trip and its vehicle from one snapshot.
        try readOneStatement { tx in try tx.revisionedTrip(provider: provider, id: id) }
    }

    package func trip<Known: Sendable>(provider: String, id: String, known: (Revision) -> Known?) async throws -> TripLookup<Known>? {
        guard let committed = committedRevisions else {
            return try readOneStatement { tx in try tx.trip(provider: provider, id: id, known: known, keepComposed: false) }
        }
        let key = provider + "/" + id
        let knownRevision = committed.revision(ofTrip: key)
        if let knownRevision, let found = known(knownRevision) { return .known(found) }
        let reading = committed.startReading()
        keptViewReadsOfSQLite.add(1, ordering: .relaxed)
        return try readOneStatement { tx in
            // The caller is not asked twice about the revision it just had nothing for.
            try tx.trip(provider: provider, id: id, known: { $0 == knownRevision ? nil : known($0) }, keepComposed: false) {
                version, vehicleKey, vehicleVersion in
                committed.learn(trip: key, version: version, vehicleKey: vehicleKey, vehicleVersion: vehicleVersion, since: reading)
            }
        }
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
                guard let trip = try tx.trip(provider: provider, id: id) else { throw StatusError(.internal, "trip '\(id)' vanished") }
                return trip
            }
        }
    }

    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        try readHere { tx in try EventBlocks.select(tx.db, filter: filter, after: afterID, limit: limit).map(Self.event) }
    }

    public func latestEventID() async throws -> Int64 {
        try readHere { tx in try EventBlocks.latestID(tx.db) }
    }

    public func eventLogStart() async throws -> Int64 {
        try readHere { tx in try EventBlocks.logStart(tx.db) }
    }

    public func newestEvents(provider: String, vehicleId: String, type: String, limit: Int) async throws -> [StoredEvent] {
        try readHere { tx in
            let statement = try tx.db.cachedStatement(sql: "SELECT history_after_event FROM vehicles WHERE provider = ? AND vehicle_id = ?")
            guard let start = try Int64.fetchOne(statement, arguments: [provider, vehicleId]) else { return [] }
            let rows = try EventBlocks.newest(tx.db, provider: provider, vehicleId: vehicleId, type: type, after: start, limit: limit)
            return rows.reversed().map(Self.event)
        }
    }

    public func newestEventsFirstID(provider: String, vehicleId: String, type: String, limit: Int) async throws -> Int64? {
        guard limit > 0 else { return nil }
        return try readHere { tx in try EventBlocks.newestFirstID(tx.db, provider: provider, vehicleId: vehicleId, type: type, limit: limit) }
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

/// How a write's outcome reaches its caller and the store's health: storage failures become
/// `UNAVAILABLE` (``StorageFailure``), and every outcome says whether writes work.
struct WriteAnswer: Sendable {
    let health: StoreHealth

    /// The error for a write whose transaction did not commit.
    func notCommitted(_ error: any Error) -> any Error {
        let cause = (error as? GroupCommit.RolledBack).map { $0.cause } ?? error
        if let cause, let failure = StorageFailure.unavailable(cause) {
            health.recordFailure(failure)
            return failure
        }
        return error is GroupCommit.RolledBack ? StatusError(.aborted, "the database rolled back the write; retry it") : error
    }

    /// The error of a write that failed on its own while its transaction committed (a full
    /// disk may fail one statement and leave the transaction open).
    func committed(_ error: any Error) -> any Error {
        if let failure = StorageFailure.unavailable(error) {
            health.recordFailure(failure)
            return failure
        }
        health.recordSuccess()
        return error
    }

    /// Records a committed write.
    func succeeded() { health.recordSuccess() }
}
