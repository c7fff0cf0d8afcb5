import Foundation
import Raster
import Testing
import TripModel

@testable import Scenarios

@Suite struct FixtureBatchTests {
    /// Every committed fixture replays and matches its goldens (what CI's
    /// `tripshare fixtures run Tests/Fixtures` checks).
    @Test func committedFixturesPass() async throws {
        let fixtures = try FixtureBatch.discover([fixturesURL])
        #expect(fixtures.count >= 12)
        let results = await FixtureBatch.run(fixtures, jobs: 2)
        for result in results where !result.passed {
            let details = result.failures + result.artefacts.filter { !$0.passed }.flatMap { ["\($0.fileName):"] + $0.differences }
            Issue.record("\(result.name) failed:\n\(details.prefix(12).joined(separator: "\n"))")
        }
        #expect(results.allSatisfy { $0.updated.isEmpty })
    }

    /// A golden with one pixel region flipped and an expected view with one number changed
    /// make the runner fail, naming the field and the pixel counts, with a diff image in the
    /// report.
    @Test func tamperedGoldensFail() async throws {
        let fixture = try copyOfFixture("basic-trip")
        defer { try? FileManager.default.removeItem(at: fixture.deletingLastPathComponent()) }
        let expected = fixture.appendingPathComponent("expected")
        // One number of an expected view.
        let viewURL = expected.appendingPathComponent("to-dropoff.trip.json")
        var view = try String(contentsOf: viewURL, encoding: .utf8)
        let distance = try #require(view.range(of: #""distanceMeters" : \d+"#, options: .regularExpression))
        view.replaceSubrange(distance, with: #""distanceMeters" : 99999"#)
        try view.write(to: viewURL, atomically: true, encoding: .utf8)
        // One 24×24 region of a golden image, inverted.
        let pngURL = expected.appendingPathComponent("enroute.png")
        let image = try PNGCodec.decode(Array(try Data(contentsOf: pngURL)))
        var pixels = image.straightRGBA
        for y in 100..<124 {
            for x in 100..<124 {
                for channel in 0..<3 { pixels[(y * image.width + x) * 4 + channel] = 255 - pixels[(y * image.width + x) * 4 + channel] }
            }
        }
        try Data(PNGCodec.encode(try Image(width: image.width, height: image.height, straightRGBA: pixels))).write(to: pngURL)

        let result = await FixtureBatch.runOne(fixture)
        #expect(!result.passed)
        let viewResult = try #require(result.artefacts.first { $0.fileName == "to-dropoff.trip.json" })
        #expect(
            viewResult.differences.contains { $0.hasPrefix("to-dropoff.trip.json.remainingWaypoints[0].distanceMeters: expected 99999, got 1732") },
            "\(viewResult.differences)")
        let pngResult = try #require(result.artefacts.first { $0.fileName == "enroute.png" })
        #expect(pngResult.differences.first?.contains("pixels differ by more than") == true, "\(pngResult.differences)")
        #expect(pngResult.diffPNG != nil)
        #expect(result.artefacts.filter { !$0.passed }.count == 2)
        let html = HTMLReport.html([result])
        #expect(html.contains("1 failed"))
        #expect(html.contains("diff (red: differs)"))
        #expect(html.contains("remainingWaypoints[0].distanceMeters: expected 99999, got 1732"))
    }

    /// An update run records missing goldens, says which, and removes stale ones; the next
    /// run passes.
    @Test func updateRecordsGoldens() async throws {
        let fixture = try copyOfFixture("cancel-mid-trip")
        defer { try? FileManager.default.removeItem(at: fixture.deletingLastPathComponent()) }
        let expected = fixture.appendingPathComponent("expected")
        try FileManager.default.removeItem(at: expected.appendingPathComponent("canceled.trip.json"))
        try Data("{}".utf8).write(to: expected.appendingPathComponent("gone.trip.json"))

        let failing = await FixtureBatch.runOne(fixture)
        #expect(!failing.passed)
        #expect(failing.artefacts.contains { $0.differences.contains { $0.contains("no golden expected/canceled.trip.json") } })
        #expect(failing.failures.contains { $0.contains("expected/gone.trip.json is not produced by any checkpoint") })

        let updating = await FixtureBatch.runOne(fixture, update: true)
        #expect(updating.updated.sorted() == ["canceled.trip.json", "gone.trip.json (removed)"])
        let again = await FixtureBatch.runOne(fixture)
        #expect(again.passed, "\(again.failures)")
        #expect(again.updated.isEmpty)
    }

    /// A call that answers another status than the scenario expects fails the fixture and
    /// says which call, what was expected and the server's message.
    @Test func unexpectedStatusFails() async throws {
        var scenario = Scenario(name: "bad", description: "", provider: "p")
        scenario.trips["t"] = json(#"{"tripType": "EXCLUSIVE", "pickupPoint": {"point": {"latitude": 1, "longitude": 2}}, "vehicleId": "nobody"}"#)
        scenario.timeline = [Scenario.Call(at: at(0), op: .createTrip, id: "t")]
        let run = try await ScenarioRunner(scenario: scenario, directory: try temporaryFolder()).run()
        #expect(run.failures.count == 1)
        #expect(
            run.failures.first?.hasPrefix("call 1 (createTrip t at 2025-02-05T17:00:00Z): expected HTTP 200, got 404") == true,
            "\(run.failures)")
    }

    /// Discovery finds fixture folders below a folder and refuses a folder without any.
    @Test func discovery() throws {
        let found = try FixtureBatch.discover([fixturesURL])
        #expect(found.contains { $0.lastPathComponent == "shared-ride" })
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: ScenarioError.self) { try FixtureBatch.discover([empty]) }
    }
}
