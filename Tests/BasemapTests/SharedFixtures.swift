import Foundation
import Testing

/// The shared real-world basemap data (`../shared/fixtures/basemap`), found from this file so
/// tests run from any directory. Suites that need it are skipped, with a note, on a clone
/// without `../shared`.
enum SharedFixtures {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repositoryRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let basemap = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/basemap")

    /// True when the shared basemap fixtures are present.
    static let available = FileManager.default.fileExists(atPath: basemap.appendingPathComponent("README.md").path)
    /// Shown for suites skipped without them.
    static let absent: Comment = "../shared/fixtures/basemap is absent: tests on the shared basemap data are skipped"

    static func url(_ relativePath: String) -> URL {
        basemap.appendingPathComponent(relativePath)
    }

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    static var helsinkiMBTiles: String { url("helsinki/helsinki.mbtiles").path }
    static var helsinkiPMTiles: String { url("helsinki/helsinki.pmtiles").path }

    /// The mvt-fixtures case folders (001, 002, ...), sorted; empty without the fixtures.
    static let mvtCases: [String] = {
        let folder = url("mvt-fixtures/fixtures").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }()

    /// The San Francisco tiles as (z, x, y, bytes).
    static func sanFranciscoTiles() throws -> [(zoom: Int, x: Int, y: Int, bytes: [UInt8])] {
        let folder = url("sanfrancisco")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mvt") }.sorted()
        return try names.map { name in
            let parts = name.dropLast(4).split(separator: "-").compactMap { Int($0) }
            return (parts[0], parts[1], parts[2], [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }
}

