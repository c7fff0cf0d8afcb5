import Foundation
import Geo
import JSON
import Logging
import NIOCore
import PostgresNIO
import TripModel
import TripStore

/// The schema migrations of the PostgreSQL store: the `migrations/NNNN_name.sql` files shipped
/// as resources of this module (numbered on their own, apart from SQLite's), applied in name
/// order, each once and in its own transaction, recorded in `schema_migrations`.
///
/// Several server processes may start at once on an empty database: each takes a session
/// advisory lock named after the schema before looking at what is applied, so one applies
/// the migrations and the others, waiting on the lock, find them applied. The lock goes with
/// the session, so a process killed mid-way leaves nothing locked.
package enum PostgresMigrations {
    /// Why migrations could not be found or applied.
    package struct LoadError: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// What a run found and did.
    package struct Outcome: Sendable {
        /// Migrations applied by this run, oldest first.
        package var appliedNow: [String]
        /// Every migration applied, oldest first.
        package var applied: [String]
    }

    /// The migration files, by name.
    package static func files() throws -> [(name: String, sql: String)] {
        guard let directory = Bundle.module.url(forResource: "migrations", withExtension: nil) else {
            throw LoadError(description: "the migrations folder is missing from the PostgresStore resources (\(Bundle.module.bundlePath))")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
        if names.isEmpty { throw LoadError(description: "no .sql files in \(directory.path)") }
        return try names.map { name in
            (String(name.dropLast(4)), try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// Applies what is pending in `schema` (created if missing) over `connection`.
    static func apply(on connection: PostgresConnection, schema: String, logger: Logger) async throws -> Outcome {
        let files = try files()
        let lockName = "tripshare.migrations." + schema
        try await connection.query("SELECT pg_advisory_lock(hashtext(\(lockName)))", logger: logger)
        do {
            let outcome = try await applyLocked(files, on: connection, schema: schema, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(hashtext(\(lockName)))", logger: logger)
            return outcome
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(hashtext(\(lockName)))", logger: logger)
            throw error
        }
    }

    /// What runs after a migration's SQL, in its transaction, by migration name: filling new
    /// columns from the stored JSON with the model's code.
    static let modelSteps: [String: @Sendable (PostgresConnection, Logger) async throws -> Void] = [
        "0007_vehicle_listing_columns": fillListingColumns,
        "0009_vehicle_routes": moveRoutesApart,
        "0010_vehicle_route_checkpoints": measureRoutesAtCheckpoints,
    ]

    /// Moves every stored vehicle's route segment out of its body into its route row,
    /// measured (migration 0009). A segment that does not decode stays in the body, where
    /// reads still find it.
    private static func moveRoutesApart(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var rows: [(Int64, String)] = []
        let query: PostgresQuery = "SELECT id, body FROM vehicles WHERE body LIKE '%\"currentRouteSegment\"%'"
        for try await row in try await connection.query(query, logger: logger).decode((Int64, String).self) {
            rows.append(row)
        }
        for (id, body) in rows {
            let vehicle = try StoredRows.decode(Vehicle.self, body)
            guard let polyline = vehicle.currentRouteSegment, let measure = MeasuredPolyline.decoding(polyline)?.measure else { continue }
            let cumulative = ByteBuffer(bytes: StoredRoute.bytes(measure.cumulativeMeters))
            let stored = try JSONCoding.encodeText(StoredRoute.body(of: vehicle))
            try await connection.query(
                "INSERT INTO vehicle_routes (vehicle, polyline, cumulative) VALUES (\(id), \(polyline), \(cumulative))", logger: logger)
            try await connection.query("UPDATE vehicles SET body = \(stored) WHERE id = \(id)", logger: logger)
        }
    }

    /// Replaces every stored route's distances with its checkpoints (migration 0010). A route
    /// that does not decode (none should) gets none: reads measure it anew, as they did.
    private static func measureRoutesAtCheckpoints(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var rows: [(Int64, String)] = []
        let query: PostgresQuery = "SELECT vehicle, polyline FROM vehicle_routes"
        for try await row in try await connection.query(query, logger: logger).decode((Int64, String).self) {
            rows.append(row)
        }
        for (vehicle, polyline) in rows {
            let checkpoints = ByteBuffer(bytes: MeasuredRoute(polyline: polyline).map { StoredRoute.checkpointBytes($0) } ?? [])
            try await connection.query("UPDATE vehicle_routes SET checkpoints = \(checkpoints) WHERE vehicle = \(vehicle)", logger: logger)
        }
    }

    /// Files every stored vehicle's listing columns (migration 0007).
    private static func fillListingColumns(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var rows: [(Int64, String)] = []
        for try await row in try await connection.query("SELECT id, body FROM vehicles", logger: logger).decode((Int64, String).self) {
            rows.append(row)
        }
        for (id, body) in rows {
            let columns = VehicleCriteria.Columns(try StoredRows.decode(Vehicle.self, body))
            try await connection.query(
                """
                UPDATE vehicles SET category = \(columns.category), capacity = \(columns.capacity), trip_types = \(columns.tripTypes),
                    on_trip = \(columns.onTrip), attribute_text = \(columns.attributeText), located_us = \(columns.locatedMicroseconds)
                WHERE id = \(id)
                """, logger: logger)
        }
    }

    private static func applyLocked(
        _ files: [(name: String, sql: String)], on connection: PostgresConnection, schema: String, logger: Logger
    ) async throws -> Outcome {
        // The name is a plain identifier (PostgresLocation checks it), safe to quote.
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""), logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_time timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied: [String] = []
        for try await name in try await connection.query("SELECT name FROM schema_migrations ORDER BY name", logger: logger)
            .decode(String.self)
        {
            applied.append(name)
        }
        let known = Set(files.map(\.name))
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw LoadError(
                description: "the database has migration \(unknown), which this tripshare does not know: it was upgraded by a newer version")
        }
        var appliedNow: [String] = []
        for file in files where !applied.contains(file.name) {
            try await connection.query("BEGIN", logger: logger)
            do {
                for statement in SQLScript.statements(file.sql) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await modelSteps[file.name]?(connection, logger)
                try await connection.query("INSERT INTO schema_migrations (name) VALUES (\(file.name))", logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw LoadError(description: "migration \(file.name) failed: \(DatabaseError.describe(error))")
            }
            appliedNow.append(file.name)
            logger.info("applied migration", metadata: ["migration": "\(file.name)", "schema": "\(schema)"])
        }
        return Outcome(appliedNow: appliedNow, applied: applied + appliedNow)
    }
}
