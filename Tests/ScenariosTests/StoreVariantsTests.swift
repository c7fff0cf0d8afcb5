import Foundation
import PostgresStore
import Scenarios
import StoreVariants
import Testing
import TripModel

/// The fixtures on both real stores: a store is persistence only, so every fixture replays to
/// exactly the same views, events and pictures on PostgreSQL as on SQLite.
@Suite struct StoreVariantsTests {
    static let postgres = FixtureStore(
        name: "PostgreSQL", open: { _ in try await TestStores.make(.postgres) },
        discard: { store in try? await (store as? PostgresTripStore)?.dropSchema() })

    /// Every committed fixture replays to identical artefacts on SQLite and PostgreSQL (and
    /// those pass the goldens: committedFixturesPass).
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) func fixturesReplayIdenticallyOnPostgres() async throws {
        let fixtures = try FixtureBatch.discover([fixturesURL])
        #expect(fixtures.count >= 12)
        for fixture in fixtures {
            let scenario = try Scenario.load(from: fixture.appendingPathComponent(FixtureBatch.scenarioFile))
            let onSQLite = try await ScenarioRunner(scenario: scenario, directory: fixture, store: .sqlite).run()
            let onPostgres = try await ScenarioRunner(scenario: scenario, directory: fixture, store: Self.postgres).run()
            #expect(onPostgres.failures == onSQLite.failures, "\(fixture.lastPathComponent)")
            #expect(onPostgres.artefacts.map(\.fileName) == onSQLite.artefacts.map(\.fileName), "\(fixture.lastPathComponent)")
            for (sqlite, postgres) in zip(onSQLite.artefacts, onPostgres.artefacts) {
                #expect(try postgres.fileBytes() == sqlite.fileBytes(), "\(fixture.lastPathComponent)/expected/\(sqlite.fileName)")
            }
        }
    }

    /// The batch runner on PostgreSQL passes the committed goldens, as `tripshare fixtures run
    /// --database postgres://...` does.
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) func committedFixturesPassOnPostgres() async throws {
        let results = await FixtureBatch.run(try FixtureBatch.discover([fixturesURL]), jobs: 2, store: Self.postgres)
        for result in results where !result.passed {
            Issue.record("\(result.name) failed on PostgreSQL: \(result.failures.prefix(5))")
        }
    }
}
