import Foundation
import GRDB
import Geo
import TripModel
import TripStore

/// The schema migrations: the `migrations/NNNN_name.sql` files shipped as resources of this
/// module, applied in name order, each once (GRDB records what it applied). A migration that
/// needs the model's code to fill new columns from the stored JSON runs it after its SQL, in
/// the same transaction (``modelSteps``).
package enum Migrations {
    /// Why migrations could not be found or applied.
    package struct LoadError: Error, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// The migration files, by name.
    package static func files() throws -> [(name: String, sql: String)] {
        guard let directory = Bundle.module.url(forResource: "migrations", withExtension: nil) else {
            throw LoadError(description: "the migrations folder is missing from the SQLiteStore resources (\(Bundle.module.bundlePath))")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        if names.isEmpty { throw LoadError(description: "no .sql files in \(directory.path)") }
        return try names.map { name in
            (String(name.dropLast(4)), try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// A migrator that applies every file.
    package static func migrator() throws -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for file in try files() {
            let sql = file.sql
            let step = modelSteps[file.name]
            migrator.registerMigration(file.name) { db in
                try db.execute(sql: sql)
                try step?(db)
            }
        }
        return migrator
    }

    /// What runs after a migration's SQL, by migration name.
    static let modelSteps: [String: @Sendable (Database) throws -> Void] = [
        "0016_vehicle_listing_columns": fillListingColumns,
        "0018_vehicle_routes": moveRoutesApart,
        "0021_vehicle_route_checkpoints": measureRoutesAtCheckpoints,
    ]

    /// Moves every stored vehicle's route segment out of its body into its route row,
    /// measured (migration 0018). A segment that does not decode stays in the body, where
    /// reads still find it.
    private static func moveRoutesApart(_ db: Database) throws {
        let insert = try db.makeStatement(sql: "INSERT INTO vehicle_routes (vehicle, polyline, cumulative) VALUES (?, ?, ?)")
        let update = try db.makeStatement(sql: "UPDATE vehicles SET body = ? WHERE id = ?")
        for row in try Row.fetchAll(db, sql: "SELECT id, body FROM vehicles WHERE body LIKE '%\"currentRouteSegment\"%'") {
            let vehicle = try StoredRows.decode(Vehicle.self, row["body"])
            guard let polyline = vehicle.currentRouteSegment, let measure = MeasuredPolyline.decoding(polyline)?.measure else { continue }
            try insert.execute(arguments: [row["id"], polyline, Data(StoredRoute.bytes(measure.cumulativeMeters))])
            try update.execute(arguments: [try SQLiteTransaction.encode(StoredRoute.body(of: vehicle)), row["id"]])
        }
    }

    /// Replaces every stored route's distances with its checkpoints (migration 0021). A route
    /// that does not decode (none should) gets none: reads measure it anew, as they did.
    private static func measureRoutesAtCheckpoints(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE vehicle_routes SET checkpoints = ? WHERE vehicle = ?")
        for row in try Row.fetchAll(db, sql: "SELECT vehicle, polyline FROM vehicle_routes") {
            let checkpoints = MeasuredRoute(polyline: row["polyline"]).map { StoredRoute.checkpointBytes($0) } ?? []
            try update.execute(arguments: [Data(checkpoints), row["vehicle"]])
        }
    }

    /// Files every stored vehicle's listing columns (migration 0016).
    private static func fillListingColumns(_ db: Database) throws {
        let update = try db.makeStatement(
            sql: """
                UPDATE vehicles SET category = ?, capacity = ?, trip_types = ?, on_trip = ?, attribute_text = ?, located_us = ?
                WHERE id = ?
                """)
        for row in try Row.fetchAll(db, sql: "SELECT id, body FROM vehicles") {
            let columns = VehicleCriteria.Columns(try StoredRows.decode(Vehicle.self, row["body"]))
            try update.execute(arguments: [
                columns.category, columns.capacity, columns.tripTypes, columns.onTrip, columns.attributeText,
                columns.locatedMicroseconds, row["id"],
            ])
        }
    }
}
