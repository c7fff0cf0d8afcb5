import Foundation

/// Paths of the shared real-world fixtures and this target's test data, found from this
/// file's location: the repository root's sibling `shared/fixtures/`, and `Data/` here.
enum TestFiles {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repositoryRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let sharedFixtures = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures")

    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: sharedFixtures.appendingPathComponent(path))
    }

    static func testData(_ name: String) throws -> Data {
        try Data(contentsOf: testsDirectory.appendingPathComponent("Data/\(name)"))
    }
}
