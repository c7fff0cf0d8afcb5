import ArgumentParser
import Foundation
import PostgresStore
import SQLiteStore

/// `tripshare migrate`: applies pending schema migrations and says which are applied.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the database schema (serve does this at start-up too).",
        discussion: """
            Works on the SQLite file of --data-dir, or on the database --database names. On PostgreSQL, \
            processes that migrate at the same time take turns (an advisory lock): one applies, the others \
            find the schema current.
            """)

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let database = try options.resolvedDatabase()
        let appliedNow: [String]
        let applied: [String]
        switch try await database.open() {
        case let store as SQLiteTripStore:
            (appliedNow, applied) = (store.newlyAppliedMigrations, try store.appliedMigrations())
        case let store as PostgresTripStore:
            (appliedNow, applied) = (store.migrations.appliedNow, store.migrations.applied)
        case let store:
            throw ValidationError("\(type(of: store)) has no migrations")
        }
        print(
            "\(database): applied now: \(appliedNow.isEmpty ? "none" : appliedNow.joined(separator: ", ")); in place: \(applied.joined(separator: ", "))"
        )
    }
}
