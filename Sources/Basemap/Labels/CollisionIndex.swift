// Space already taken on the picture (labels, keep-out boxes, the attribution) and lines that
// labels must stay off (a route drawn over the map, as segments with a half width), in a
// uniform grid so that testing a new box looks at its neighbourhood only.

import Raster

struct CollisionIndex {
    /// A segment of a stroked line: labels keep more than `halfWidth` away from it.
    struct Segment {
        let a: Point
        let b: Point
        let halfWidth: Double

        /// True when the stroke covers part of the box's interior.
        func touches(_ box: Rect) -> Bool {
            Self.distance(a, b, box) < halfWidth
        }

        /// True when the stroke covers the point.
        func covers(_ point: Point) -> Bool {
            Self.distance(point, a, b) < halfWidth
        }

        /// Distance from a point to segment ab.
        static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared, 0), 1) : 0
            let x = a.x + dx * t - p.x
            let y = a.y + dy * t - p.y
            return (x * x + y * y).squareRoot()
        }

        /// Distance from segment ab to the box (0 when they meet).
        static func distance(_ a: Point, _ b: Point, _ box: Rect) -> Double {
            if box.contains(a) || box.contains(b) { return 0 }
            let corners = [Point(box.x, box.y), Point(box.maxX, box.y), Point(box.maxX, box.maxY), Point(box.x, box.maxY)]
            for index in 0..<4 where crosses(a, b, corners[index], corners[(index + 1) % 4]) { return 0 }
            var nearest = min(pointDistance(a, box), pointDistance(b, box))
            for corner in corners { nearest = min(nearest, distance(corner, a, b)) }
            return nearest
        }

        private static func pointDistance(_ p: Point, _ box: Rect) -> Double {
            let x = max(box.x - p.x, 0, p.x - box.maxX)
            let y = max(box.y - p.y, 0, p.y - box.maxY)
            return (x * x + y * y).squareRoot()
        }

        private static func crosses(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Bool {
            func side(_ a: Point, _ b: Point, _ c: Point) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
            let d1 = side(q1, q2, p1)
            let d2 = side(q1, q2, p2)
            let d3 = side(p1, p2, q1)
            let d4 = side(p1, p2, q2)
            return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
        }
    }

    private let cellSize = 64.0
    private let columns: Int
    private let rows: Int
    private var cells: [[Int]]
    private var boxes: [Rect] = []
    private var segmentCells: [[Int]]
    private var segments: [Segment] = []
    /// Half the widest line kept out, device pixels (0 without lines).
    private(set) var widestHalfLine = 0.0

    init(width: Int, height: Int) {
        columns = max(1, Int((Double(width) / cellSize).rounded(.up)))
        rows = max(1, Int((Double(height) / cellSize).rounded(.up)))
        cells = [[Int]](repeating: [], count: columns * rows)
        segmentCells = [[Int]](repeating: [], count: columns * rows)
    }

    /// True when lines are kept out.
    var hasLines: Bool { !segments.isEmpty }

    private func cellRange(_ box: Rect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        guard box.x.isFinite, box.y.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return nil }
        let x0 = min(max(Int((box.x / cellSize).rounded(.down)), 0), columns - 1)
        let x1 = min(max(Int((box.maxX / cellSize).rounded(.down)), 0), columns - 1)
        let y0 = min(max(Int((box.y / cellSize).rounded(.down)), 0), rows - 1)
        let y1 = min(max(Int((box.maxY / cellSize).rounded(.down)), 0), rows - 1)
        return (x0...x1, y0...y1)
    }

    /// True when the box overlaps a box already taken or a line kept out.
    func collides(_ box: Rect) -> Bool {
        guard let (xs, ys) = cellRange(box) else { return true }
        for y in ys {
            for x in xs {
                for index in cells[y * columns + x] where boxes[index].intersects(box) { return true }
                for index in segmentCells[y * columns + x] where segments[index].touches(box) { return true }
            }
        }
        return false
    }

    /// True when a line kept out covers the point.
    func lineCovers(_ point: Point) -> Bool {
        guard let (xs, ys) = cellRange(Rect(x: point.x, y: point.y, width: 0, height: 0)) else { return false }
        for index in segmentCells[ys.lowerBound * columns + xs.lowerBound] where segments[index].covers(point) { return true }
        return false
    }

    /// Takes a box.
    mutating func insert(_ box: Rect) {
        guard let (xs, ys) = cellRange(box) else { return }
        let index = boxes.count
        boxes.append(box)
        for y in ys {
            for x in xs { cells[y * columns + x].append(index) }
        }
    }

    /// Keeps labels off a polyline stroked `width` wide.
    mutating func insertLine(_ points: [Point], width: Double) {
        guard width > 0, width.isFinite else { return }
        let half = width / 2
        widestHalfLine = max(widestHalfLine, half)
        for (a, b) in zip(points, points.dropFirst()) {
            let bounds = Rect(x: min(a.x, b.x) - half, y: min(a.y, b.y) - half, width: abs(b.x - a.x) + width, height: abs(b.y - a.y) + width)
            guard let (xs, ys) = cellRange(bounds) else { continue }
            let index = segments.count
            segments.append(Segment(a: a, b: b, halfWidth: half))
            for y in ys {
                for x in xs { segmentCells[y * columns + x].append(index) }
            }
        }
    }
}
