// The batch runner's speed: the two-trips Fleet Engine log (543 calls through the API, the
// SQLite store and the navigator, 12 checkpoints with a rider view, trip events and a
// rendered preview each), replayed on its scripted clock. Issue 5 asks for under 5 s.

import Benchmark
import Foundation
import Scenarios

/// The repository's Tests/Fixtures folder.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(30)
    Benchmark.defaultConfiguration.maxIterations = 5

    Benchmark("Replay two-trips-bay-area (543 calls, 12 renders)", configuration: .init(metrics: [.wallClock, .mallocCountTotal])) { benchmark in
        let directory = fixtures.appendingPathComponent("two-trips-bay-area")
        let scenario = try Scenario.load(from: directory.appendingPathComponent("scenario.json"))
        benchmark.startMeasurement()
        let run = try await ScenarioRunner(scenario: scenario, directory: directory).run()
        benchmark.stopMeasurement()
        blackHole(run.artefacts.count)
    }
}
