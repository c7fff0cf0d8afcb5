import Foundation

@testable import Geo

/// A small deterministic generator (SplitMix64), so random-looking inputs repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

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
