import Foundation
import Testing

@testable import Raster

/// Coverage of a stroked polyline on a small canvas.
func strokeCoverage(_ points: [Point], style: StrokeStyle, width: Int = 24, height: Int = 24, closed: Bool = false) -> [UInt8] {
    var path = Path.polyline(points)
    if closed { path.close() }
    return Canvas(width: width, height: height).coverage(ofStroke: path, style: style)
}

/// Distance from a point to a segment.
func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a
    let t = ab.lengthSquared == 0 ? 0 : max(0, min(1, (p - a).dot(ab) / ab.lengthSquared))
    return (p - (a + ab * t)).length
}

/// Checks a round-joined, round-capped stroke against distance: pixels well inside are
/// full, pixels well outside are empty (no gaps, no spikes).
func expectRoundStrokeMatchesDistance(
    _ points: [Point], width: Double, canvas: Int = 24,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let mask = strokeCoverage(
        points, style: StrokeStyle(width: width, cap: .round, join: .round),
        width: canvas, height: canvas)
    let half = width / 2
    // Distances to the polyline the stroker actually draws, after merging close vertices.
    let points = Stroker.merged(points, closed: false, distance: Stroker(style: StrokeStyle(width: width)).mergeDistance)
    for y in 0..<canvas {
        for x in 0..<canvas {
            let center = Point(Double(x) + 0.5, Double(y) + 0.5)
            var nearest = Double.infinity
            for index in 0..<max(points.count - 1, 1) {
                let b = points.count > 1 ? points[index + 1] : points[index]
                nearest = min(nearest, distance(center, points[index], b))
            }
            let value = mask[y * canvas + x]
            if nearest < half - 0.75 {
                #expect(value == 255, "gap at \(x),\(y)", sourceLocation: sourceLocation)
            } else if nearest > half + 0.75 {
                #expect(value == 0, "spike at \(x),\(y)", sourceLocation: sourceLocation)
            }
        }
    }
}

@Suite struct StrokerTests {
    /// A 1 px line between pixel edges fills exactly one column at full coverage.
    @Test func onePixelLineFillsOneColumn() {
        let mask = strokeCoverage([Point(5.5, 0), Point(5.5, 24)], style: StrokeStyle(width: 1, cap: .butt))
        for y in 0..<24 {
            for x in 0..<24 {
                #expect(mask[y * 24 + x] == (x == 5 ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    /// Butt caps end at the end points, square caps extend by exactly half the width.
    @Test func capsExtendByHalfWidth() {
        let row = { (mask: [UInt8]) in Array(mask[(10 * 24)..<(11 * 24)]) }
        let butt = row(strokeCoverage([Point(6, 10.5), Point(12, 10.5)], style: StrokeStyle(width: 3, cap: .butt)))
        #expect(butt == (0..<24).map { (6..<12).contains($0) ? 255 : 0 })
        let square = row(strokeCoverage([Point(6, 10.5), Point(12, 10.5)], style: StrokeStyle(width: 3, cap: .square)))
        // Half of 3 is 1.5: [4.5, 13.5] covers 5…12 fully and 4, 13 by half.
        #expect(square == (0..<24).map { (5..<13).contains($0) ? 255 : ($0 == 4 || $0 == 13 ? 128 : 0) })
        let round = row(strokeCoverage([Point(6, 10.5), Point(12, 10.5)], style: StrokeStyle(width: 3, cap: .round)))
        #expect(round[5] == 255 && round[12] == 255)
        #expect(round[4] > 0 && round[4] < 128 && round[13] > 0 && round[13] < 128)
        #expect(round[3] == 0 && round[14] == 0)
    }

    /// A 90° corner: miter fills the outer corner square, bevel cuts it in half, round lies between.
    @Test func rightAngleJoins() {
        let points = [Point(2, 10), Point(10, 10), Point(10, 2)]
        func corner(_ join: LineJoin) -> UInt8 {
            strokeCoverage(points, style: StrokeStyle(width: 2, cap: .butt, join: join))[10 * 24 + 10]
        }
        #expect(corner(.miter) == 255)
        #expect(corner(.bevel) == 128)
        let round = corner(.round)
        // The quarter disc of radius 1 covers π/4 of the pixel: 200 of 255, less the 0.1 px
        // chord error of the 14-vertex pen (Cairo draws the same polygon).
        #expect(abs(Int(round) - 200) <= 8)
        // Inside the corner and along both legs, no gaps.
        let miter = strokeCoverage(points, style: StrokeStyle(width: 2, cap: .butt, join: .miter))
        #expect(miter[9 * 24 + 9] == 255 && miter[9 * 24 + 5] == 255 && miter[5 * 24 + 9] == 255)
        #expect(miter[11 * 24 + 11] == 0 && miter[8 * 24 + 8] == 0)
    }

    /// Miter joins sharper than the limit become bevels: no spike beyond the limit.
    @Test func miterLimitCutsSpikes() {
        let points = [Point(2, 12), Point(20, 12), Point(2, 13)]
        let limited = strokeCoverage(points, style: StrokeStyle(width: 2, cap: .butt, join: .miter, miterLimit: 4))
        for x in 22..<24 { #expect((0..<24).allSatisfy { limited[$0 * 24 + x] == 0 }) }
        let unlimited = strokeCoverage(points, style: StrokeStyle(width: 2, cap: .butt, join: .miter, miterLimit: 100))
        #expect((0..<24).contains { unlimited[$0 * 24 + 23] > 0 })
    }

    /// Round joins leave no gaps or spikes on a zigzag, a 180° reversal and sub-pixel vertices.
    @Test func roundStrokesMatchDistanceField() {
        expectRoundStrokeMatchesDistance([Point(3, 12), Point(12, 12), Point(12, 3)], width: 4)
        expectRoundStrokeMatchesDistance([Point(3, 12), Point(18, 12), Point(6, 12)], width: 4)
        expectRoundStrokeMatchesDistance([Point(4, 4), Point(8, 18), Point(12, 4), Point(16, 18), Point(20, 4)], width: 3)
        expectRoundStrokeMatchesDistance(
            [Point(3, 12), Point(10, 12), Point(10.2, 12.1), Point(10.3, 11.9), Point(10.35, 12.2), Point(18, 6)], width: 5)
        expectRoundStrokeMatchesDistance([Point(12, 12)], width: 6)
    }

    /// Short segments shorter than the half width still stroke solidly.
    @Test func veryShortSegments() {
        var points: [Point] = []
        for step in 0..<60 {
            let t = Double(step) * 0.25
            points.append(Point(4 + t, 12 + 4 * sin(t)))
        }
        expectRoundStrokeMatchesDistance(points, width: 5)
    }

    /// A 180° reversal with bevel joins ends flat at the turning point.
    @Test func reversalWithBevel() {
        let mask = strokeCoverage([Point(4, 12), Point(16, 12), Point(4, 12)], style: StrokeStyle(width: 4, cap: .butt, join: .bevel))
        #expect(mask[12 * 24 + 15] == 255)
        #expect(mask[12 * 24 + 16] == 0)
        #expect(mask[10 * 24 + 8] == 255 && mask[13 * 24 + 8] == 255)
    }

    /// A closed square outline leaves its inside empty and its band full, without doubling.
    @Test func closedOutline() {
        let mask = strokeCoverage(
            [Point(4, 4), Point(20, 4), Point(20, 20), Point(4, 20)],
            style: StrokeStyle(width: 2, cap: .butt, join: .miter), closed: true)
        #expect(mask[12 * 24 + 12] == 0)
        #expect(mask[4 * 24 + 12] == 255 && mask[3 * 24 + 12] == 255 && mask[2 * 24 + 12] == 0)
        #expect(mask[3 * 24 + 3] == 255)
        #expect(mask[12 * 24 + 3] == 255 && mask[12 * 24 + 20] == 255)
    }

    /// Vertices closer than the merge distance collapse; the end point stays exact.
    @Test func mergesCloseVertices() {
        let merged = Stroker.merged([Point(0, 0), Point(0.5, 0), Point(5, 0), Point(5.9, 0.1)], closed: false, distance: 1)
        #expect(merged == [Point(0, 0), Point(5.9, 0.1)])
        #expect(Stroker.merged([Point(1, 1), Point(1, 1)], closed: false, distance: 1) == [Point(1, 1)])
        #expect(Stroker(style: StrokeStyle(width: 8)).mergeDistance == 1)
        #expect(Stroker(style: StrokeStyle(width: 2)).mergeDistance == 0.25)
    }
}
