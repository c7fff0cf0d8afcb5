// A run's artefacts against the goldens in `expected/`: every artefact must have a golden
// that matches within the scenario's tolerances, and every golden must still be produced
// (a stale golden means a checkpoint was renamed or dropped). In update mode the goldens
// that differ are rewritten instead, and the result says which — an update never passes
// silently.

import Foundation
import JSON
import Raster
import TripModel

/// The outcome of one fixture.
package struct FixtureResult: Sendable {
    /// The scenario's name.
    package var name: String
    /// Its folder.
    package var directory: URL
    /// Calls sent.
    package var calls: Int
    /// Previews rendered.
    package var renders: Int
    /// Wall-clock seconds of the replay.
    package var seconds: Double
    /// Problems outside any one golden: unexpected HTTP statuses, stale or unreadable goldens.
    package var failures: [String]
    /// Every artefact with its comparison.
    package var artefacts: [ArtefactResult]
    /// Goldens written by an update run.
    package var updated: [String]

    /// True when every call answered as expected and every artefact matches its golden.
    package var passed: Bool { failures.isEmpty && artefacts.allSatisfy(\.passed) }
}

/// One artefact compared with its golden.
package struct ArtefactResult: Sendable {
    /// The golden's file name.
    package var fileName: String
    /// What differs; empty when it matches.
    package var differences: [String]
    /// The actual bytes (for the report).
    package var actual: [UInt8]
    /// The golden's bytes, when there is one.
    package var expected: [UInt8]?
    /// The diff image of a PNG that differs.
    package var diffPNG: [UInt8]?

    /// True when it matches.
    package var passed: Bool { differences.isEmpty }
    /// True for an image.
    package var isImage: Bool { fileName.hasSuffix(".png") }
}

/// Compares or updates the goldens of a scenario.
enum GoldenComparison {
    /// The goldens' folder inside a fixture.
    static let folder = "expected"

    static func result(of run: ScenarioRun, scenario: Scenario, directory: URL, update: Bool) throws -> FixtureResult {
        let expectedDirectory = directory.appendingPathComponent(folder)
        var result = FixtureResult(
            name: scenario.name, directory: directory, calls: run.calls, renders: run.renders,
            seconds: run.seconds, failures: run.failures, artefacts: [], updated: [])
        let produced = Set(run.artefacts.map(\.fileName))
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: expectedDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".png") }.sorted()
        if update { try FileManager.default.createDirectory(at: expectedDirectory, withIntermediateDirectories: true) }
        for artefact in run.artefacts {
            let url = expectedDirectory.appendingPathComponent(artefact.fileName)
            let actual = try artefact.fileBytes()
            let golden = FileManager.default.contents(atPath: url.path).map { [UInt8]($0) }
            var compared = compare(artefact, actual: actual, golden: golden, tolerances: scenario.tolerances)
            if update, golden != actual, !(golden != nil && compared.passed) {
                try Data(actual).write(to: url)
                result.updated.append(artefact.fileName)
                compared.differences = []
            }
            result.artefacts.append(compared)
        }
        for stale in existing where !produced.contains(stale) {
            if update {
                try FileManager.default.removeItem(at: expectedDirectory.appendingPathComponent(stale))
                result.updated.append("\(stale) (removed)")
            } else {
                result.failures.append("\(folder)/\(stale) is not produced by any checkpoint (renamed or removed?); run with --update")
            }
        }
        return result
    }

    private static func compare(
        _ artefact: Artefact, actual: [UInt8], golden: [UInt8]?,
        tolerances: Scenario.Tolerances
    ) -> ArtefactResult {
        var result = ArtefactResult(fileName: artefact.fileName, differences: [], actual: actual, expected: golden, diffPNG: nil)
        guard let golden else {
            result.differences = ["no golden \(folder)/\(artefact.fileName); run with --update to record it"]
            return result
        }
        switch artefact.content {
        case .json(let value):
            do {
                let expected = try JSONParser.parse(golden)
                result.differences = JSONComparison.differences(
                    expected: expected, actual: value, tolerances: tolerances,
                    root: artefact.fileName)
            } catch {
                result.differences = ["\(folder)/\(artefact.fileName) is not JSON: \(error.description)"]
            }
        case .png:
            do {
                let expected = try PNGCodec.decode(golden)
                let image = try PNGCodec.decode(actual)
                guard expected.width == image.width, expected.height == image.height else {
                    result.differences = ["size: expected \(expected.width)x\(expected.height), got \(image.width)x\(image.height)"]
                    return result
                }
                let metrics = try ImageComparison.compare(expected: expected, actual: image, channelTolerance: tolerances.pixelChannel)
                if !metrics.passes(tolerances) {
                    result.differences = [
                        String(
                            format:
                                "%d of %d pixels differ by more than %d (%.3f%%, allowed %.3f%%); mean difference %.3f/255 (allowed %.3f); largest %d",
                            metrics.differentPixels, metrics.totalPixels, tolerances.pixelChannel,
                            100 * Double(metrics.differentPixels) / Double(max(1, metrics.totalPixels)), 100 * tolerances.differentPixels,
                            metrics.meanDifference, tolerances.meanDifference, metrics.maximumDifference)
                    ]
                    result.diffPNG = metrics.diffPNG
                }
            } catch {
                result.differences = ["\(artefact.fileName): \(error)"]
            }
        }
        return result
    }
}
