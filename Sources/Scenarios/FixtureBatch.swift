// `tripshare fixtures run DIR...` without the terminal: find the fixtures under the given
// folders, replay them (several at once with `jobs`), compare or update their goldens, and
// report each result as it comes. Each fixture has its own database and clock, so parallel
// runs share nothing but the CPU.

import Foundation

/// Runs many fixtures.
package enum FixtureBatch {
    /// The file that makes a folder a fixture.
    package static let scenarioFile = "scenario.json"

    /// Fixture folders: each given folder that holds a `scenario.json`, else every folder
    /// below it that does (sorted). Throws when a path is missing or holds no fixture.
    package static func discover(_ paths: [URL]) throws -> [URL] {
        var found: [URL] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ScenarioError("\(path.path): no such folder")
            }
            if FileManager.default.fileExists(atPath: path.appendingPathComponent(scenarioFile).path) {
                found.append(path)
                continue
            }
            let below = (FileManager.default.subpaths(atPath: path.path) ?? [])
                .filter { ($0 as NSString).lastPathComponent == scenarioFile }
                .map { path.appendingPathComponent(($0 as NSString).deletingLastPathComponent) }
                .sorted { $0.path < $1.path }
            guard !below.isEmpty else { throw ScenarioError("\(path.path): no \(scenarioFile) in it or below it") }
            found += below
        }
        return found
    }

    /// Runs `fixtures`, at most `jobs` at a time; `update` rewrites the goldens that differ.
    /// `progress` is called as each fixture finishes, with how many are done. Results come
    /// back in the order of `fixtures`.
    package static func run(
        _ fixtures: [URL], jobs: Int = 1, update: Bool = false, store: FixtureStore = .sqlite,
        progress: (@Sendable (FixtureResult, Int, Int) -> Void)? = nil
    ) async -> [FixtureResult] {
        var results = [FixtureResult?](repeating: nil, count: fixtures.count)
        await withTaskGroup(of: (Int, FixtureResult).self) { group in
            var next = 0
            var done = 0
            func start() {
                let index = next
                next += 1
                group.addTask { (index, await runOne(fixtures[index], update: update, store: store)) }
            }
            while next < min(max(1, jobs), fixtures.count) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                done += 1
                progress?(result, done, fixtures.count)
                if next < fixtures.count { start() }
            }
        }
        return results.compactMap { $0 }
    }

    /// Loads, replays and compares one fixture; any error becomes a failed result.
    package static func runOne(_ directory: URL, update: Bool = false, store: FixtureStore = .sqlite) async -> FixtureResult {
        do {
            let scenario = try Scenario.load(from: directory.appendingPathComponent(scenarioFile))
            let run = try await ScenarioRunner(scenario: scenario, directory: directory, store: store).run()
            return try GoldenComparison.result(of: run, scenario: scenario, directory: directory, update: update)
        } catch {
            return FixtureResult(
                name: directory.lastPathComponent, directory: directory, calls: 0, renders: 0, seconds: 0,
                failures: ["\(error)"], artefacts: [], updated: [])
        }
    }
}
