import Foundation

@testable import Geo


enum TestSupport {
    /// A file of the shared fixtures, found from this source file so tests run from any
    /// working directory: Tests/GeoTests/ → repository root → ../shared/fixtures.
    static func fixtureURL(_ relativePath: String, file: String = #filePath) -> URL {
        URL(fileURLWithPath: file)
            .deletingLastPathComponent() // GeoTests
            .deletingLastPathComponent() // Tests
            .deletingLastPathComponent() // repository root
            .deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures")
            .appendingPathComponent(relativePath)
    }

    /// Bytes from a hex string (the form S2's published goldens take).
    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// Great-circle distance, for comparing points in metres.
    static func meters(_ a: LatLng, _ b: LatLng) -> Double { Earth.distance(a, b) }
}
