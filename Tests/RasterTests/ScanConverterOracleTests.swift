import Foundation
import TestKit
import Testing

@testable import Raster

/// The slow, obvious oracle: the exact area of each pixel square where the polygon's
/// winding number is inside under the fill rule. The square is cut into vertical slabs at
/// every vertex, every crossing of two edges and every edge crossing the square's top or
/// bottom; inside a slab the edges keep their order and the filled length of a vertical
/// line through the square is linear in x, so the slab's area is that length at the slab's
/// middle times its width. (For a simple polygon this is the area of the polygon clipped to
/// the square; where a self-crossing polygon overlaps itself, the overlap counts once.)
enum CoverageOracle {
    static func coverage(of polygon: [Point], width: Int, height: Int, rule: FillRule = .nonZero) -> [Double] {
        coverage(of: [polygon], width: width, height: height, rule: rule)
    }

    /// The same for several polygons filled as one shape.
    static func coverage(of polygons: [[Point]], width: Int, height: Int, rule: FillRule = .nonZero) -> [Double] {
        let edges = polygons.flatMap { polygon in polygon.indices.map { (polygon[$0], polygon[($0 + 1) % polygon.count]) } }
        let vertices = polygons.flatMap { $0 }
        var crossingsX: [Double] = []
        for i in edges.indices {
            for j in edges.indices where j > i {
                if let x = crossingX(edges[i], edges[j]) { crossingsX.append(x) }
            }
        }
        var result = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let left = Double(x)
                let right = Double(x + 1)
                let top = Double(y)
                let bottom = Double(y + 1)
                var cuts = [left, right] + vertices.map(\.x) + crossingsX
                for (a, b) in edges {
                    for line in [top, bottom] where (a.y - line) * (b.y - line) < 0 {
                        cuts.append(a.x + (b.x - a.x) * (line - a.y) / (b.y - a.y))
                    }
                }
                cuts = cuts.filter { $0 >= left && $0 <= right }.sorted()
                var area = 0.0
                for index in 0..<(cuts.count - 1) where cuts[index + 1] > cuts[index] {
                    let middle = (cuts[index] + cuts[index + 1]) / 2
                    area += filledLength(edges, x: middle, top: top, bottom: bottom, rule: rule) * (cuts[index + 1] - cuts[index])
                }
                result[y * width + x] = area
            }
        }
        return result
    }

    /// The length of the vertical line at `x` between `top` and `bottom` where the winding
    /// number (the signed count of edges crossed coming from above) is inside.
    private static func filledLength(_ edges: [(Point, Point)], x: Double, top: Double, bottom: Double, rule: FillRule) -> Double {
        var crossings: [(y: Double, step: Int)] = []
        for (a, b) in edges where (a.x - x) * (b.x - x) < 0 {
            crossings.append((a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x), b.x > a.x ? 1 : -1))
        }
        crossings.sort { $0.y < $1.y }
        var winding = 0
        var length = 0.0
        for index in crossings.indices {
            winding += crossings[index].step
            let inside = rule == .evenOdd ? winding % 2 != 0 : winding != 0
            guard inside, index + 1 < crossings.count else { continue }
            let from = max(crossings[index].y, top)
            let to = min(crossings[index + 1].y, bottom)
            if to > from { length += to - from }
        }
        return length
    }

    /// The x where two segments cross at one point, if they do.
    private static func crossingX(_ p: (Point, Point), _ q: (Point, Point)) -> Double? {
        let r = Point(p.1.x - p.0.x, p.1.y - p.0.y)
        let s = Point(q.1.x - q.0.x, q.1.y - q.0.y)
        let denominator = r.x * s.y - r.y * s.x
        guard denominator != 0 else { return nil }
        let t = ((q.0.x - p.0.x) * s.y - (q.0.y - p.0.y) * s.x) / denominator
        let u = ((q.0.x - p.0.x) * r.y - (q.0.y - p.0.y) * r.x) / denominator
        guard t > 0, t < 1, u > 0, u < 1 else { return nil }
        return p.0.x + t * r.x
    }
}


@Suite struct ScanConverterOracleTests {
    /// Compares the scan converter with the oracle, pixel by pixel: at most one 8-bit level
    /// from the correctly rounded exact coverage (fixed-point crossings are 1/256 px).
    func expectMatchesOracle(
        _ polygon: [Point], size: Int, rule: FillRule = .nonZero, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fast = Canvas(width: size, height: size).coverage(of: .polygon(polygon), rule: rule)
        let exact = CoverageOracle.coverage(of: polygon, width: size, height: size, rule: rule)
        var worst = 0.0
        for index in fast.indices {
            worst = max(worst, abs(Double(fast[index]) - (exact[index] * 255).rounded()))
        }
        #expect(worst <= 1.0, "worst difference \(worst)/255 for \(polygon) (\(rule))", sourceLocation: sourceLocation)
    }

    /// A slanted edge crossing several pixels per row matches the oracle.
    @Test func slantedTriangle() {
        expectMatchesOracle([Point(11.5, 14), Point(19.5, 8), Point(11.5, 8)], size: 24)
        expectMatchesOracle([Point(19.5, 8), Point(11.5, 14), Point(19.5, 14)], size: 24)
    }

    /// Random polygons around a centre on the 1/256 grid agree with the oracle within 1/255,
    /// under both fill rules. Where two neighbouring vertices are more than half a turn apart
    /// the polygon crosses itself, so these include overlaps that must count once.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomPolygonsMatchOracle(rule: FillRule) {
        var generator = SplitMix64(seed: 42)
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
            expectMatchesOracle(polygon, size: size, rule: rule)
        }
    }

    /// Random self-crossing polygons (vertices in any order) agree with the oracle within 1/255.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomTanglesMatchOracle(rule: FillRule) {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let count = Int.random(in: 4...9, using: &generator)
            let polygon = (0..<count).map { _ in
                Point(
                    (Double.random(in: 1...15, using: &generator) * 256).rounded() / 256,
                    (Double.random(in: 1...15, using: &generator) * 256).rounded() / 256)
            }
            expectMatchesOracle(polygon, size: 16, rule: rule)
        }
    }

    /// Neighbouring buildings from the San Francisco tiles: one's flat roof ends inside a
    /// pixel row at the corner the other's wall starts from; the winding left of that pixel
    /// changes at the roof, so the roof must bound the cluster the corner is resolved in.
    @Test func neighboursWithAFlatRoofMatchOracle() {
        let polygons = [
            [Point(16.3519, 12.6976), Point(16.3519, 14.5101), Point(16.2894, 15.8226), Point(14.7894, 15.7601), Point(14.7269, 12.6976)],
            [Point(16.3519, 12.6976), Point(16.8519, 12.7531), Point(16.8519, 15.6172), Point(16.5394, 15.5726)],
        ]
        var contours = Contours()
        for polygon in polygons { contours.append(Polyline(points: polygon, isClosed: true)) }
        let fast = Canvas(width: 20, height: 20).coverage(of: contours, rule: .nonZero)
        let exact = CoverageOracle.coverage(of: polygons, width: 20, height: 20)
        let worst = fast.indices.map { abs(Double(fast[$0]) - (exact[$0] * 255).rounded()) }.max() ?? 0
        #expect(worst <= 1)
    }

    /// Two thin strokes along one wall (neighbours' outlines) cover it once, as the oracle does.
    @Test func coincidentThinOutlinesCountOnce() {
        // One contour that runs along the strip twice, the same way round.
        let strip = [Point(2.25, 1), Point(2.75, 1), Point(2.75, 9), Point(2.25, 9)]
        let twice = strip + [Point(2.25, 1)] + strip.dropFirst() + [Point(2.25, 1)]
        let coverage = Canvas(width: 6, height: 10).coverage(of: .polygon(twice))
        #expect(coverage[4 * 6 + 2] == 128)
        expectMatchesOracle(twice, size: 10)
    }
}
