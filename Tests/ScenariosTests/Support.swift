import Foundation
import JSON
import Scenarios
import TripModel

/// The repository's folder.
func repositoryURL(file: StaticString = #filePath) -> URL {
    URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// The committed fixtures.
var fixturesURL: URL { repositoryURL().appendingPathComponent("Tests/Fixtures") }

/// A file of the real data beside the repository (`../shared/fixtures`).
func sharedFixture(_ path: String) -> URL {
    repositoryURL().deletingLastPathComponent().appendingPathComponent("shared/fixtures").appendingPathComponent(path)
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-scenarios-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A copy of a committed fixture in a temporary folder.
func copyOfFixture(_ name: String) throws -> URL {
    let folder = try temporaryFolder().appendingPathComponent(name)
    try FileManager.default.copyItem(at: fixturesURL.appendingPathComponent(name), to: folder)
    return folder
}

let t0 = Timestamp(rfc3339: "2025-02-05T17:00:00Z") ?? Timestamp(microseconds: 0)

/// `t0` plus `seconds`.
func at(_ seconds: Double) -> Timestamp { t0.adding(seconds: seconds) }

/// Parses JSON text in a test (traps on bad JSON: tests only).
func json(_ text: String) -> JSONValue {
    try! JSONParser.parse(Array(text.utf8))
}
