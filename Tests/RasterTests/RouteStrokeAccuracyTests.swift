import Foundation
import Testing

@testable import Raster

/// The coverage of a round-capped, round-joined stroke computed the slow way: the share of
/// 8×8 sample points per pixel within half the width of the polyline (every original
/// vertex, no merging), with a grid to find nearby segments.
struct StrokeOracle {
    let points: [Point]
    let halfWidth: Double
    let cellSize = 16.0
    var grid: [Int: [Int]] = [:]

    init(points: [Point], width: Double) {
        self.points = points
        halfWidth = width / 2
        let reach = halfWidth + 1.5
        for index in 0..<(points.count - 1) {
            let a = points[index]
            let b = points[index + 1]
            let minX = Int(((min(a.x, b.x) - reach) / cellSize).rounded(.down))
            let maxX = Int(((max(a.x, b.x) + reach) / cellSize).rounded(.down))
            let minY = Int(((min(a.y, b.y) - reach) / cellSize).rounded(.down))
            let maxY = Int(((max(a.y, b.y) + reach) / cellSize).rounded(.down))
            for gy in minY...maxY {
                for gx in minX...maxX { grid[gy * 100_000 + gx, default: []].append(index) }
            }
        }
    }

    func coverage(x: Int, y: Int) -> Double {
        guard let candidates = grid[Int(Double(y) / cellSize) * 100_000 + Int(Double(x) / cellSize)] else { return 0 }
        func nearest(_ p: Point) -> Double {
            candidates.reduce(Double.infinity) { min($0, distance(p, points[$1], points[$1 + 1])) }
        }
        let center = nearest(Point(Double(x) + 0.5, Double(y) + 0.5))
        if center < halfWidth - 0.71 { return 1 }
        if center > halfWidth + 0.71 { return 0 }
        var inside = 0
        for sy in 0..<8 {
            for sx in 0..<8 {
                let sample = Point(Double(x) + (Double(sx) + 0.5) / 8, Double(y) + (Double(sy) + 0.5) / 8)
                if nearest(sample) <= halfWidth { inside += 1 }
            }
        }
        return Double(inside) / 64
    }
}

@Suite struct RouteStrokeAccuracyTests {
    /// An 8 px stroke of the real 2,000-vertex route matches the geometric truth to the
    /// Cairo targets: mean difference ≤ 0.05/255 and < 0.02% of pixels off by > 64.
    @Test func realRouteMatchesGeometry() throws {
        let list = try Fixtures.displayList("route-2k")
        guard case .polyline(let route) = list.operations.first else {
            Issue.record("route-2k starts with the route polyline")
            return
        }
        let size = 640
        let ours = Canvas(width: size, height: size).coverage(ofStroke: .polyline(route.points), style: route.style)
        let oracle = StrokeOracle(points: route.points, width: route.style.width)
        var total = 0.0
        var off = 0
        for y in 0..<size {
            for x in 0..<size {
                let delta = abs(Double(ours[y * size + x]) - oracle.coverage(x: x, y: y) * 255)
                total += delta
                if delta > 64 { off += 1 }
            }
        }
        let mad = total / Double(size * size)
        let share = 100 * Double(off) / Double(size * size)
        #expect(mad <= 0.05, "mean absolute difference \(mad)/255")
        #expect(share < 0.02, "\(off) pixels (\(share)%) off by more than 64")
    }
}
