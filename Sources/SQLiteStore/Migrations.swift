import Foundation
import GRDB

/// The schema migrations: the `migrations/NNNN_name.sql` files shipped as resources of this
/// module, applied in name order, each once (GRDB records what it applied).
public enum Migrations {
    /// Why migrations could not be found or applied.
    public struct LoadError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The migration files, by name.
    public static func files() throws -> [(name: String, sql: String)] {
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
    public static func migrator() throws -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for file in try files() {
            let sql = file.sql
            migrator.registerMigration(file.name) { db in try db.execute(sql: sql) }
        }
        return migrator
    }
}
