import ArgumentParser
import Foundation
import PostgresStore
import Scenarios

/// `tripshare fixtures run`: the batch runner.
struct FixturesRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay every fixture under DIR... and compare with its expected/ goldens.",
        discussion: """
            Each fixture (a folder with scenario.json) is replayed through the real API, store (a temporary \
            SQLite file) and navigator at full speed, on a clock set to each call's time; its checkpoints \
            record rider views, vehicles, navInfo, events and previews, which are compared with expected/ \
            (numbers and times within the scenario's tolerances, images by pixel metrics). Exits non-zero on \
            any mismatch. --update rewrites the goldens that differ; a run that rewrites any also exits \
            non-zero, so nothing is accepted without a look.
            Example: tripshare fixtures run Tests/Fixtures --jobs 2 --report out/fixtures.html
            """
    )

    @Argument(help: "Fixture folders, or folders holding fixtures.")
    var directories: [String]

    @Flag(help: "Rewrite the goldens that differ or are missing (and remove stale ones).")
    var update = false

    @Option(help: "Fixtures replayed at once.")
    var jobs: Int = 1

    @Option(help: "Where to write the HTML report.")
    var report: String = "out/fixtures-report.html"

    @Option(
        name: .customLong("database"),
        help: """
            Replay each fixture into a schema of its own in this PostgreSQL database (postgres://..., dropped after the run) \
            instead of a temporary SQLite file: the same goldens hold for both stores.
            """)
    var database: String?

    func validate() throws {
        if jobs < 1 || jobs > 64 { throw ValidationError("--jobs must be between 1 and 64") }
    }

    /// The store each fixture replays into.
    func fixtureStore() throws -> FixtureStore {
        guard let database else { return .sqlite }
        guard case .postgres(let location) = try DatabaseChoice(database) else {
            throw ValidationError("--database must be a postgres:// URL (fixtures use a temporary SQLite file otherwise)")
        }
        return FixtureStore(
            name: "PostgreSQL",
            open: { _ in
                let schema = "fixture_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
                return try await PostgresTripStore(location: location.inSchema(schema), maximumConnections: 4, liveness: .patient)
            },
            discard: { store in try? await (store as? PostgresTripStore)?.dropSchema() })
    }

    func run() async throws {
        let fixtures: [URL]
        do { fixtures = try FixtureBatch.discover(directories.map { URL(fileURLWithPath: $0) }) } catch {
            throw ValidationError("\(error)")
        }
        let store = try fixtureStore()
        let plural = (fixtures.count == 1 ? "" : "s", jobs == 1 ? "" : "s")
        print("Replaying \(fixtures.count) fixture\(plural.0) on \(store.name) with \(jobs) job\(plural.1)\(update ? ", UPDATING GOLDENS" : "").")
        let progress = ProgressLine(label: "fixtures")
        let started = Date()
        progress.update(0, of: fixtures.count)
        let results = await FixtureBatch.run(fixtures, jobs: jobs, update: update, store: store) { result, done, total in
            progress.note(
                String(
                    format: "%@ %@ (%d calls, %d renders, %.2f s)", result.passed ? "ok  " : "FAIL",
                    result.name, result.calls, result.renders, result.seconds))
            progress.update(done, of: total)
        }
        progress.finish()
        let reportURL = URL(fileURLWithPath: report)
        try HTMLReport.write(results, to: reportURL)

        for result in results where !result.passed {
            print("\nFAIL \(result.name) (\(result.directory.path))")
            for failure in result.failures.prefix(10) { print("  \(failure)") }
            if result.failures.count > 10 { print("  ... and \(result.failures.count - 10) more") }
            for artefact in result.artefacts where !artefact.passed {
                print("  expected/\(artefact.fileName):")
                for difference in artefact.differences.prefix(8) { print("    \(difference)") }
            }
        }
        let updated = results.flatMap { result in result.updated.map { "\(result.name)/expected/\($0)" } }
        if !updated.isEmpty {
            print(
                """

                ******************************************************************
                *  --update REWROTE \(updated.count) GOLDEN FILE\(updated.count == 1 ? "" : "S"). Look at every one before committing.
                ******************************************************************
                """)
            for file in updated { print("  \(file)") }
        }
        let failed = results.filter { !$0.passed }.count
        print(
            String(
                format: "\n%d passed, %d failed in %.1f s. Report: %@", results.count - failed, failed,
                Date().timeIntervalSince(started), reportURL.path))
        if failed > 0 || !updated.isEmpty { throw ExitCode.failure }
    }
}
