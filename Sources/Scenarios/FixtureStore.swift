import Foundation
import SQLiteStore
import TripStore

/// The store a scenario replays into: a fresh, empty one per run (DESIGN §10 runs fixtures on
/// a temporary SQLite file; `fixtures run --database` on PostgreSQL, each run in a schema of
/// its own), and what to do with it afterwards.
public struct FixtureStore: Sendable {
    /// Makes the run's store; the folder is the run's own temporary folder.
    package let open: @Sendable (URL) async throws -> any TripStore
    /// Disposes of the run's store once the run is over.
    package let discard: @Sendable (any TripStore) async -> Void
    /// Names the kind of store in reports.
    package let name: String

    /// A store provider from its parts.
    package init(
        name: String, open: @escaping @Sendable (URL) async throws -> any TripStore,
        discard: @escaping @Sendable (any TripStore) async -> Void = { _ in }
    ) {
        self.name = name
        self.open = open
        self.discard = discard
    }

    /// SQLite in the run's temporary folder (deleted with it).
    public static let sqlite = FixtureStore(name: "SQLite") { folder in
        try SQLiteTripStore(path: folder.appendingPathComponent("fixture.sqlite").path)
    }
}
