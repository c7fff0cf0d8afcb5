import Foundation
import Testing

@testable import Raster

/// The slow, obvious oracle: the exact area of a simple polygon inside each pixel square,
/// by clipping the polygon against the square (Sutherland–Hodgman) and taking the
/// shoelace area of what is left.
enum CoverageOracle {
    static func coverage(of polygon: [Point], width: Int, height: Int) -> [Double] {
        var result = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var clipped = polygon
                let left = Double(x)
                let right = Double(x + 1)
                let top = Double(y)
                let bottom = Double(y + 1)
                clipped = clip(clipped, inside: { $0.x >= left }, intersect: { a, b in at(a, b, x: left) })
                clipped = clip(clipped, inside: { $0.x <= right }, intersect: { a, b in at(a, b, x: right) })
                clipped = clip(clipped, inside: { $0.y >= top }, intersect: { a, b in at(a, b, y: top) })
                clipped = clip(clipped, inside: { $0.y <= bottom }, intersect: { a, b in at(a, b, y: bottom) })
                result[y * width + x] = abs(area(clipped))
            }
        }
        return result
    }

    static func area(_ polygon: [Point]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for index in polygon.indices {
            let a = polygon[index]
            let b = polygon[(index + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    private static func clip(_ polygon: [Point], inside: (Point) -> Bool, intersect: (Point, Point) -> Point) -> [Point] {
        guard !polygon.isEmpty else { return [] }
        var output: [Point] = []
        var previous = polygon[polygon.count - 1]
        for current in polygon {
            if inside(current) {
                if !inside(previous) { output.append(intersect(previous, current)) }
                output.append(current)
            } else if inside(previous) {
                output.append(intersect(previous, current))
            }
            previous = current
        }
        return output
    }

    private static func at(_ a: Point, _ b: Point, x: Double) -> Point {
        let t = (x - a.x) / (b.x - a.x)
        return Point(x: x, y: a.y + (b.y - a.y) * t)
    }

    private static func at(_ a: Point, _ b: Point, y: Double) -> Point {
        let t = (y - a.y) / (b.y - a.y)
        return Point(x: a.x + (b.x - a.x) * t, y: y)
    }
}

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct ScanConverterOracleTests {
    /// Compares the scan converter with the oracle, pixel by pixel: at most one 8-bit level
    /// from the correctly rounded exact coverage (fixed-point crossings are 1/256 px).
    func expectMatchesOracle(_ polygon: [Point], size: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = Canvas(width: size, height: size).coverage(of: .polygon(polygon))
        let exact = CoverageOracle.coverage(of: polygon, width: size, height: size)
        var worst = 0.0
        for index in fast.indices {
            worst = max(worst, abs(Double(fast[index]) - (exact[index] * 255).rounded()))
        }
        #expect(worst <= 1.0, "worst difference \(worst)/255 for \(polygon)", sourceLocation: sourceLocation)
    }

    /// A slanted edge crossing several pixels per row matches the oracle.
    @Test func slantedTriangle() {
        expectMatchesOracle([Point(11.5, 14), Point(19.5, 8), Point(11.5, 8)], size: 24)
        expectMatchesOracle([Point(19.5, 8), Point(11.5, 14), Point(19.5, 14)], size: 24)
    }

    /// Random star-shaped (simple) polygons on the 1/256 grid agree with the oracle within 1/255.
    @Test func randomPolygonsMatchOracle() {
        var generator = SeededGenerator(state: 42)
        for _ in 0..<200 {
            let size = 16
            let center = Point(Double.random(in: 4...12, using: &generator), Double.random(in: 4...12, using: &generator))
            let count = Int.random(in: 3...12, using: &generator)
            let angles = (0..<count).map { _ in Double.random(in: 0..<(2 * Double.pi), using: &generator) }.sorted()
            let polygon = angles.map { angle -> Point in
                let radius = Double.random(in: 0.3...9, using: &generator)
                let x = ((center.x + radius * cos(angle)) * 256).rounded() / 256
                let y = ((center.y + radius * sin(angle)) * 256).rounded() / 256
                return Point(x, y)
            }
            expectMatchesOracle(polygon, size: size)
        }
    }
}
