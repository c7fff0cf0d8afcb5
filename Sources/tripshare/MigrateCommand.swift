import ArgumentParser
import Foundation
import SQLiteStore

/// `tripshare migrate`: applies pending schema migrations and says which are applied.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Create or upgrade the database schema (serve does this at start-up too).")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        try FileManager.default.createDirectory(atPath: options.resolvedDataDirectory, withIntermediateDirectories: true)
        let store = try SQLiteTripStore(path: options.databasePath)
        let applied = try store.appliedMigrations()
        let now = store.newlyAppliedMigrations
        print("\(options.databasePath): applied now: \(now.isEmpty ? "none" : now.joined(separator: ", ")); in place: \(applied.joined(separator: ", "))")
    }
}
