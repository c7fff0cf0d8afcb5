import Caching
import Foundation
import Geo
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TripModel
import TripStore

/// The scale-out store (DESIGN §2, §11): the same data and semantics as the SQLite store on
/// a PostgreSQL database that several server processes share.
///
/// - Writes run in batches, one transaction each (``WriteLane``); a write locks the rows it
///   reads, so two processes' writes of one vehicle run one after the other.
/// - The event log's ids are in commit order across processes (EventLog), and each commit
///   that logs events notifies the other processes (``SharedTripStore/eventCommits()``).
/// - Decoded rows are cached per process, always checked against the row versions the
///   database returns in the same statement (``DecodedRowCaches``). Riders' trip reads that
///   arrive together share that statement (``TripReadBatcher``), never an older one.
/// - Reads run on pooled connections (``ConnectionPool``); a transaction body, which is
///   synchronous, runs on a thread of the store's that waits for each statement.
/// - An unreachable database makes every call fail quickly with UNAVAILABLE; the pool
///   reconnects by itself once it is back. ``health`` holds the failure from the first failed
///   connection attempt (or write) until a write commits again (see ``probeWrites()``).
public final class PostgresTripStore: SharedTripStore {
    /// Where the database is.
    public let location: PostgresLocation
    /// What the migrations found and did when the store was opened.
    package let migrations: PostgresMigrations.Outcome
    let pool: ConnectionPool
    /// Asked whether the database answers when a statement waits long.
    let liveness: DatabaseLiveness
    let caches: DecodedRowCaches
    let lane: WriteLane
    /// Riders' trip reads, gathered into shared statements.
    let tripReads: TripReadBatcher
    /// Whether writes fail now: fed by the pool's connection attempts and every write.
    public let health = StoreHealth()
    /// Threads that run read transactions' (synchronous) bodies, shared by every store of
    /// the process (a test process makes hundreds of stores).
    static let readers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()
    /// Names this store object in its notifications, so it can skip its own.
    let instance = UUID().uuidString
    let logger: Logger

    /// Connects to the database at `location` and applies pending migrations (creating the
    /// schema if needed). Throws UNAVAILABLE when the server cannot be reached, saying where.
    /// At most `maximumConnections` connections are open at once (the write lane's and
    /// pooled reads'; a listener for ``eventCommits()`` has one more of its own, and one more
    /// is kept open for the liveness check when `keepsLivenessConnection`, as a server's store
    /// should: it tells a busy database from a silent one at once; see DatabaseLiveness).
    /// `liveness` says how soon a silent database fails writes (``PostgresLivenessTimings``);
    /// decoded rows go in `cacheBudget`'s pool (the database server caches pages).
    public init(
        location: PostgresLocation, maximumConnections: Int = 12, keepsLivenessConnection: Bool = true,
        liveness timings: PostgresLivenessTimings = .serving, cacheBudget: CacheBudget = .standard,
        logger: Logger = Logger(label: "tripshare.postgres")
    )
        async throws
    {
        self.location = location
        caches = DecodedRowCaches(budget: cacheBudget)
        self.logger = logger
        liveness = DatabaseLiveness(location: location, timings: timings, logger: logger)
        pool = ConnectionPool(
            location: location, maximumConnections: max(2, maximumConnections), health: health, liveness: liveness, logger: logger)
        tripReads = TripReadBatcher { [pool, liveness] statement in
            try await Self.rows(statement, pool: pool, liveness: liveness, location: location, logger: logger)
        }
        let migrationConnection = try await pool.connectDedicated()
        do {
            migrations = try await PostgresMigrations.apply(on: migrationConnection, schema: location.schema, logger: logger)
            try? await migrationConnection.close()
        } catch {
            try? await migrationConnection.close()
            throw DatabaseError.mapped(error, location)
        }
        lane = WriteLane(
            pool: pool, liveness: liveness, caches: caches, health: health, channel: EventLog.channel(schema: location.schema), instance: instance,
            logger: logger)
        if keepsLivenessConnection { liveness.keepConnectionOpen(connectTimeout: pool.connectTimeout) }
    }

    deinit {
        // Stores made by tests are not closed explicitly: let their thread and idle
        // connections go with them.
        let pool = pool
        let lane = lane
        let liveness = liveness
        Task {
            await lane.shutdown()
            await pool.close()
            await liveness.close()
        }
    }

    /// Closes the store's connections and stops its threads; calls after that fail with
    /// UNAVAILABLE.
    package func close() async {
        await lane.shutdown()
        await pool.close()
        await liveness.close()
    }

    /// Deletes the store's schema with everything in it, then closes the store: for the
    /// throwaway schemas of tests and fixture runs.
    package func dropSchema() async throws {
        guard location.schema != "public" else { throw StatusError(.failedPrecondition, "the public schema is not dropped") }
        _ = try await rows(PostgresQuery(unsafeSQL: "DROP SCHEMA \"\(location.schema)\" CASCADE"))
        await close()
    }

    // MARK: Transactions

    public func writeTransaction(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws {
        try await writeTransaction(readingVehicle: nil, body)
    }

    /// Locks `vehicle` ahead, with the vehicles of the other writes of its batch, in one
    /// statement (WriteLane): a location update then costs no round trip of its own.
    public func writeTransaction(
        readingVehicle vehicle: VehicleKey?, _ body: @escaping @Sendable (any StoreTransaction) throws -> Void
    ) async throws {
        try await lane.write(readingVehicle: vehicle) { tx in try body(tx) }
    }

    /// Runs `body` in a read-only REPEATABLE READ transaction: one snapshot for all its reads.
    public func readSnapshot(_ body: @escaping @Sendable (any StoreReader) throws -> Void) async throws {
        try await withConnection { connection in
            let caches = caches
            let logger = logger
            let liveness = liveness
            try await Self.readers.runIfActive {
                let blocking = BlockingConnection(connection: connection, logger: logger, liveness: liveness)
                try blocking.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    try body(PostgresTransaction(connection: blocking, caches: caches, batch: nil))
                    try blocking.execute("COMMIT")
                } catch {
                    // Not on a lost connection: on a silent database it would wait for
                    // another liveness check before the read failed.
                    if !DatabaseError.isConnectionLoss(error) { _ = try? blocking.execute("ROLLBACK") }
                    throw error
                }
            }
        }
    }

    /// Runs `body` with a pooled connection; a read that lost its connection (say, the server
    /// restarted since the connection was opened) runs once more on a new one, unless the
    /// database was found silent (NoAnswer: another try would only wait as long again). Errors come out
    /// as the API's (``DatabaseError/mapped(_:_:)``).
    func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await Self.withConnection(pool: pool, location: location, body)
    }

    static func withConnection<T>(
        pool: ConnectionPool, location: PostgresLocation, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await pool.withConnection(body)
        } catch  where DatabaseError.isBrokenConnection(error) {
            do {
                return try await pool.withConnection(body)
            } catch {
                throw DatabaseError.mapped(error, location)
            }
        } catch {
            throw DatabaseError.mapped(error, location)
        }
    }

    /// The rows of a prepared statement on a pooled connection (waiting at most
    /// ``PostgresNIO/PostgresConnection/answerDeadline``).
    func rows(_ statement: some RowStatement) async throws -> [PostgresRow] {
        try await Self.rows(statement, pool: pool, liveness: liveness, location: location, logger: logger)
    }

    static func rows(
        _ statement: some RowStatement, pool: ConnectionPool, liveness: DatabaseLiveness, location: PostgresLocation, logger: Logger
    ) async throws -> [PostgresRow] {
        try await withConnection(pool: pool, location: location) { connection in
            let rows = connection.eventLoop.makePromise(of: [PostgresRow].self)
            rows.completeWithTask { [logger] in
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            }
            return try await connection.withinDeadline(rows.futureResult, liveness: liveness).get()
        }
    }

    /// The rows of one statement on a pooled connection (waiting at most
    /// ``PostgresNIO/PostgresConnection/answerDeadline``).
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withConnection { connection in
            try await connection.withinDeadline(connection.query(query, logger: logger), liveness: liveness).get().rows
        }
    }

    /// Writes a 16 KiB row and deletes it again, through the write lane like every write (so
    /// it records its outcome in ``health``): it needs new pages, stored out of line and
    /// uncompressed (migration 0003), so on a full disk it fails as the API's writes do, and
    /// while the database is unreachable it fails at once.
    public func probeWrites() async throws {
        try await lane.write { tx in try tx.probeStorage() }
    }

    // MARK: Reads

    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>? {
        var cached = RowReads.cachedTripVersions(provider: provider, id: id, caches: caches)
        while true {
            let statement = TripRead(provider: provider, id: id, cachedTrip: cached.trip, cachedVehicle: cached.vehicle)
            let row = try await tripReads.row(statement)
            switch try RowReads.trip(row.map { [$0] } ?? [], provider: provider, id: id, caches: caches, compose: true) {
            case .absent: return nil
            case .cacheRace: cached = (-1, -1)
            case .found(let value, let updates):
                caches.apply(updates)
                RowReads.rememberComposed(value.trip, provider: provider, id: id, caches: caches)
                return value.trip
            }
        }
    }

    public func listVehicles(provider: String, criteria: VehicleCriteria, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter() ?? ""
        // The page and the count of every match, from one snapshot: one statement.
        var query = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 16)
        query.appendLiteral("WITH matching AS (SELECT vehicle_id FROM vehicles v WHERE v.provider = ")
        query.appendInterpolation(provider)
        query.appendLiteral(" AND ")
        criteria.appendPostgresCondition(to: &query, alias: "v.")
        query.appendLiteral(
            """
            ) SELECT v.vehicle_id, v.body, (SELECT count(*) FROM matching),
                (SELECT vr.polyline FROM vehicle_routes vr WHERE vr.vehicle = v.id),
                (SELECT vr.checkpoints FROM vehicle_routes vr WHERE vr.vehicle = v.id), v.tracking, v.row_version
            FROM matching m JOIN vehicles v ON v.provider = 
            """)
        query.appendInterpolation(provider)
        query.appendLiteral(" AND v.vehicle_id = m.vehicle_id WHERE m.vehicle_id > ")
        query.appendInterpolation(after)
        query.appendLiteral(" ORDER BY m.vehicle_id LIMIT ")
        query.appendInterpolation(page.pageSize + 1)
        let found = try await rows(PostgresQuery(stringInterpolation: query))
        var total = 0
        let vehicles = try found.map { row in
            let (id, body, count, polyline, checkpoints, tracking, version) =
                try row.decode((String, String, Int64, String?, ByteBuffer?, String, Int64).self)
            total = Int(count)
            return try cachedVehicle(provider: provider, id: id, version: version)
                ?? RowReads.vehicle(body: body, tracking: tracking, polyline: polyline, checkpoints: checkpoints)
        }
        if found.isEmpty {
            // Past the last match the page is empty; the count still covers every page.
            var count = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 12)
            count.appendLiteral("SELECT count(*) FROM vehicles v WHERE v.provider = ")
            count.appendInterpolation(provider)
            count.appendLiteral(" AND ")
            criteria.appendPostgresCondition(to: &count, alias: "v.")
            total = Int(try await rows(PostgresQuery(stringInterpolation: count)).first?.decode(Int64.self) ?? 0)
        }
        return Page.of(vehicles, size: page.pageSize, totalSize: total) { ResourceName.lastComponent(of: $0.name) }
    }

    public func searchVehicles(provider: String, criteria: VehicleCriteria) async throws -> [VehicleWithTrips] {
        // The vehicles and their unfinished trips (their live fields from the vehicle where
        // marked so), from one snapshot: one statement.
        var query = PostgresQuery.StringInterpolation(literalCapacity: 512, interpolationCount: 16)
        query.appendLiteral(
            """
            SELECT v.vehicle_id, v.body, t.body, t.progress_from_vehicle,
                (SELECT vr.polyline FROM vehicle_routes vr WHERE vr.vehicle = v.id),
                (SELECT vr.checkpoints FROM vehicle_routes vr WHERE vr.vehicle = v.id), v.tracking, v.row_version
            FROM vehicles v
            LEFT JOIN trips t ON v.on_trip AND t.provider = v.provider AND t.vehicle_id = v.vehicle_id AND t.unfinished
            WHERE v.provider = 
            """)
        query.appendInterpolation(provider)
        query.appendLiteral(" AND ")
        criteria.appendPostgresCondition(to: &query, alias: "v.")
        query.appendLiteral(" ORDER BY v.vehicle_id, t.id")
        let found = try await rows(PostgresQuery(stringInterpolation: query))
        var result: [VehicleWithTrips] = []
        var lastId: String?
        for row in found {
            let (vehicleId, vehicleBody, tripBody, progressFromVehicle, polyline, checkpoints, tracking, version) =
                try row.decode((String, String, String?, Bool?, String?, ByteBuffer?, String, Int64).self)
            if vehicleId != lastId {
                let vehicle =
                    try cachedVehicle(provider: provider, id: vehicleId, version: version)
                    ?? RowReads.vehicle(body: vehicleBody, tracking: tracking, polyline: polyline, checkpoints: checkpoints)
                result.append(VehicleWithTrips(vehicle: vehicle, unfinishedTrips: []))
                lastId = vehicleId
            }
            guard let tripBody, let index = result.indices.last else { continue }
            let trip = try StoredRows.decode(Trip.self, tripBody)
            result[index].unfinishedTrips.append(progressFromVehicle == true ? trip.withProgress(of: result[index].vehicle) : trip)
        }
        return result
    }

    /// A listed or searched vehicle from the decoded cache when it holds the row's version, so
    /// that its JSON is decoded only when it changed: decoding every vehicle returned was most
    /// of a search's time and two fifths of a listing's (issue 31).
    private func cachedVehicle(provider: String, id: String, version: Int64) -> Vehicle? {
        caches.vehicles.value(for: RowReads.key(provider, id), version: version, { $0.vehicle })
    }

    public func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip> {
        let after = try query.page.startAfter() ?? ""
        // As riders read them: live fields from the vehicle where the row says so.
        let found = try await rows(
            """
            SELECT t.trip_id, t.body, t.progress_from_vehicle, v.body,
                (SELECT vr.polyline FROM vehicle_routes vr WHERE vr.vehicle = v.id),
                (SELECT vr.checkpoints FROM vehicle_routes vr WHERE vr.vehicle = v.id), v.tracking FROM trips t
            LEFT JOIN vehicles v ON t.progress_from_vehicle AND v.provider = t.provider AND v.vehicle_id = t.vehicle_id
            WHERE t.provider = \(provider) AND t.trip_id > \(after)
                AND (\(query.vehicleId)::text IS NULL OR t.vehicle_id = \(query.vehicleId))
                AND (NOT \(query.activeTripsOnly) OR t.unfinished)
            ORDER BY t.trip_id LIMIT \(query.page.pageSize + 1)
            """)
        let trips = try found.map { row -> Trip in
            let (_, tripBody, progressFromVehicle, vehicleBody, polyline, checkpoints, tracking) =
                try row.decode((String, String, Bool, String?, String?, ByteBuffer?, String?).self)
            guard progressFromVehicle, let vehicleBody, let tracking else { return try StoredRows.decode(Trip.self, tripBody) }
            return try ComposedTripRows.trip(body: tripBody).withProgress(
                of: try ComposedTripRows.vehicle(
                    body: vehicleBody, tracking: tracking, polyline: polyline, checkpoints: checkpoints?.readableBytesView))
        }
        return Page.of(trips, size: query.page.pageSize) { $0.tripId }
    }

    // MARK: The event log

    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        return try await rows(EventLog.select(filter: filter, after: afterID, limit: limit)).map(EventLog.event)
    }

    /// The newest ID ever logged: retention may delete the newest event, never its number.
    public func latestEventID() async throws -> Int64 {
        try await rows("SELECT last_id FROM event_log_head").first?.decode(Int64.self) ?? 0
    }

    public func eventLogStart() async throws -> Int64 {
        try await rows("SELECT after_event FROM event_log_start").first?.decode(Int64.self) ?? 0
    }

    public func newestEvents(provider: String, vehicleId: String, type: String, limit: Int) async throws -> [StoredEvent] {
        guard limit > 0 else { return [] }
        return try await rows(EventLog.newest(provider: provider, vehicleId: vehicleId, type: type, limit: limit))
            .map(EventLog.event).reversed()
    }

    public func newestEventsFirstID(provider: String, vehicleId: String, type: String, limit: Int) async throws -> Int64? {
        guard limit > 0 else { return nil }
        return try await rows(EventLog.newestFirstID(provider: provider, vehicleId: vehicleId, type: type, limit: limit)).first?
            .decode(Int64?.self)
    }

    public func eventCommits() -> AsyncStream<Int64> {
        CommitListener(pool: pool, channel: EventLog.channel(schema: location.schema), instance: instance, logger: logger).stream()
    }
}
