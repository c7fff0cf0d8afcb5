// The stores the test suites run against (issue 16: the same tests on every store): the
// in-memory store, SQLite on a temporary file, and PostgreSQL in a fresh schema of the
// database that TRIPSHARE_TEST_POSTGRES_URL names (scripts/test starts a throwaway cluster
// with scripts/postgres and sets it).
//
// Without that variable the PostgreSQL variants do not run, and say so: tests of PostgreSQL
// alone are reported skipped or cancelled with the reason, and a suite that runs its tests
// on every store has one test, skipped with the reason, that stands for its PostgreSQL cases
// (``TestStores/postgresWanted``). CI (scripts/test) sets the URL and also
// TRIPSHARE_TEST_REQUIRE_POSTGRES=1, so there nothing is skipped: a missing URL or server fails.

import Foundation
import Logging
import PostgresStore
import SQLiteStore
import Testing
import TripStore

/// A kind of store to run a test against.
package enum TestStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    /// The kind's name in test reports.
    package var testDescription: String { rawValue }

    /// Every kind whose tests run here: PostgreSQL only when wanted (TestStores.postgresWanted).
    package static var available: [TestStoreKind] { TestStores.postgresWanted ? allCases : [.memory, .sqlite] }

    /// The persistent stores (what a server runs on) whose tests run here.
    package static var persistent: [TestStoreKind] { TestStores.postgresWanted ? [.sqlite, .postgres] : [.sqlite] }
}

/// Fresh, empty stores of each kind.
package enum TestStores {
    /// The environment variable naming the PostgreSQL database the tests may use.
    package static let postgresURLVariable = "TRIPSHARE_TEST_POSTGRES_URL"
    /// Set to 1 (CI does) to fail instead of skipping when the database is not given.
    package static let requirePostgresVariable = "TRIPSHARE_TEST_REQUIRE_POSTGRES"

    /// Whether the PostgreSQL variants run: the database is given, or required.
    package static var postgresWanted: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment[postgresURLVariable]?.isEmpty == false || environment[requirePostgresVariable] == "1"
    }

    /// Why the PostgreSQL variants did not run.
    package static let skipReason: Comment = "PostgreSQL variants not run: set TRIPSHARE_TEST_POSTGRES_URL (scripts/postgres start prints one)"

    /// What the PostgreSQL variants need and did not get.
    package struct MissingDatabase: Error, CustomStringConvertible {
        /// What is missing.
        package var description: String { "\(requirePostgresVariable)=1 but \(postgresURLVariable) is not set" }
    }

    /// The test database, or nil when the variable is unset; a malformed URL is a failure.
    package static func postgresLocation() throws -> PostgresLocation? {
        guard let url = ProcessInfo.processInfo.environment[postgresURLVariable], !url.isEmpty else { return nil }
        return try PostgresLocation(url: url)
    }

    /// The test database; when the variable is unset, cancels the running test (saying why),
    /// or fails it when the database is required.
    package static func requirePostgres() throws -> PostgresLocation {
        guard let location = try postgresLocation() else {
            if ProcessInfo.processInfo.environment[requirePostgresVariable] == "1" { throw MissingDatabase() }
            try Test.cancel(skipReason)
        }
        return location
    }

    /// The stores' logger: warnings and errors only (each new schema's migrations are news
    /// to nobody).
    package static let logger: Logger = {
        var logger = Logger(label: "tripshare.test-store")
        logger.logLevel = .warning
        return logger
    }()

    /// A schema of its own for one store, so tests running at once share nothing.
    package static func freshSchema() -> String {
        "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    /// A new, empty store of `kind` (the PostgreSQL one in a new schema).
    package static func make(_ kind: TestStoreKind) async throws -> any TripStore {
        switch kind {
        case .memory: return InMemoryTripStore()
        case .sqlite: return try SQLiteTripStore(path: try temporarySQLitePath(), soleWriter: true)
        case .postgres:
            // Hundreds of stores at once: each opens its liveness check's connection only if a
            // statement of it grows slow, not one each from the start.
            return try await PostgresTripStore(
                location: try requirePostgres().inSchema(freshSchema()), maximumConnections: 4, keepsLivenessConnection: false, liveness: .patient,
                logger: logger)
        }
    }

    /// A path for a new SQLite database in a new temporary directory.
    package static func temporarySQLitePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("test.sqlite").path
    }
}
