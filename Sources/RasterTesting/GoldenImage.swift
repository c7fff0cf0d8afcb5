// Golden pictures, compared one way everywhere. Our code decides every pixel except
// FreeType's glyph masks, so a comparison is exact outside the regions a caller marks
// tolerant (usually its text) and allows a small difference per channel inside them. Recording
// is explicit (TRIPSHARE_RECORD_GOLDENS=1) and fails every test it wrote for, so nothing is
// accepted unseen.

import Foundation
import Raster
import Testing

/// Checks pictures against golden PNG files.
package enum GoldenImage {
    /// The environment variable that makes checks write their goldens instead.
    package static let recordVariable = "TRIPSHARE_RECORD_GOLDENS"

    /// Whether checks record instead of compare.
    package static var recording: Bool { ProcessInfo.processInfo.environment[recordVariable] != nil }

    /// How two pictures of the same size differ.
    package struct Difference: Sendable, Equatable, CustomStringConvertible {
        /// Pixels outside the tolerant regions that differ at all.
        package var exact = 0
        /// Pixels inside the tolerant regions that differ by more than the tolerance.
        package var tolerant = 0
        /// The largest difference of one channel in any pixel compared.
        package var largest = 0

        /// Pixels that differ by more than their region allows.
        package var pixels: Int { exact + tolerant }

        package var description: String { "\(pixels) pixels differ, by at most \(largest)" }
    }

    /// Counts the pixels of `image` that differ from `golden` (both the same size), among those
    /// where `isCompared(x, y)`: any difference where `isTolerant(x, y)` is false, more than
    /// `tolerance` per channel where it is true.
    package static func difference(
        _ image: Image, from golden: Image, tolerance: Int, isTolerant: (Int, Int) -> Bool,
        isCompared: (Int, Int) -> Bool = { _, _ in true }
    ) -> Difference {
        var difference = Difference()
        for y in 0..<image.height {
            for x in 0..<image.width where isCompared(x, y) {
                let a = image.pixel(x: x, y: y)
                let b = golden.pixel(x: x, y: y)
                guard a != b else { continue }
                let delta = max(
                    abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                    abs(Int(a.blue) - Int(b.blue)), abs(Int(a.alpha) - Int(b.alpha)))
                difference.largest = max(difference.largest, delta)
                if !isTolerant(x, y) {
                    difference.exact += 1
                } else if delta > tolerance {
                    difference.tolerant += 1
                }
            }
        }
        return difference
    }

    /// The pixels of `image` that differ at all from `other` (both the same size), among those
    /// where `isCompared(x, y)`, and by how much at most: for pictures that must be the same
    /// but for rounding.
    package static func difference(
        _ image: Image, from other: Image, isCompared: (Int, Int) -> Bool = { _, _ in true }
    ) -> Difference {
        difference(image, from: other, tolerance: 0, isTolerant: { _, _ in false }, isCompared: isCompared)
    }

    /// Compares `image` with the golden PNG at `url`, or records it there (as `encode` writes
    /// it) when recording. Exact where `isTolerant(x, y)` is false, at most `tolerance` per
    /// channel where it is true. Failures are recorded as test issues that name the file.
    package static func check(
        _ image: Image, golden url: URL, tolerance: Int = 48,
        isTolerant: (Int, Int) -> Bool = { _, _ in false },
        encode: (Image) throws -> [UInt8] = { try PNGCodec.encode($0) },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = url.lastPathComponent
        if recording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(encode(image)).write(to: url)
            Issue.record("recorded golden \(name); look at it, then run again without \(recordVariable)", sourceLocation: sourceLocation)
            return
        }
        guard let data = try? Data(contentsOf: url) else {
            Issue.record("no golden \(url.path); record it with \(recordVariable)=1", sourceLocation: sourceLocation)
            return
        }
        let golden = try PNGCodec.decode(Array(data))
        guard golden.width == image.width, golden.height == image.height else {
            Issue.record(
                "size \(image.width)×\(image.height) differs from \(name)'s \(golden.width)×\(golden.height)", sourceLocation: sourceLocation)
            return
        }
        let difference = difference(image, from: golden, tolerance: tolerance, isTolerant: isTolerant)
        #expect(difference.exact == 0, "\(difference.exact) pixels outside text differ from \(name)", sourceLocation: sourceLocation)
        #expect(
            difference.tolerant == 0, "\(difference.tolerant) text pixels differ from \(name) by more than \(tolerance)",
            sourceLocation: sourceLocation)
    }
}
