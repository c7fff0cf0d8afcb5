// Parallel lines for `line-offset` and `line-gap-width`: every vertex moves along the mean of
// its segments' normals, lengthened so both segments keep the distance (a miter), capped at
// four times the offset where segments fold back. Positive offsets go to the right of the
// line's direction (y down), as in MapLibre.

import Raster

enum LineOffset {
    /// The polyline moved `distance` pixels to the right of its direction.
    static func offset(_ points: [Point], by distance: Double, closed: Bool) -> [Point] {
        let count = points.count
        guard count >= 2, distance != 0, distance.isFinite else { return points }
        func normal(_ a: Point, _ b: Point) -> Point? {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { return nil }
            // Right of the direction with y down: (-dy, dx).
            return Point(x: -dy / length, y: dx / length)
        }
        var result: [Point] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let previous = index > 0 ? points[index - 1] : (closed ? points[count - 1] : nil)
            let next = index < count - 1 ? points[index + 1] : (closed ? points[0] : nil)
            let incoming = previous.flatMap { normal($0, points[index]) }
            let outgoing = next.flatMap { normal(points[index], $0) }
            var shift: Point
            switch (incoming, outgoing) {
            case (let a?, let b?):
                let sum = Point(x: a.x + b.x, y: a.y + b.y)
                let cosine = (a.x * b.x + a.y * b.y)
                // The miter's length is 1 / cos(half the turn) = sqrt(2 / (1 + cos(turn))).
                let stretch = min((2 / max(1 + cosine, 1e-9)).squareRoot(), 4)
                let length = (sum.x * sum.x + sum.y * sum.y).squareRoot()
                shift = length > 1e-9 ? Point(x: sum.x / length * stretch, y: sum.y / length * stretch) : a
            case (let a?, nil): shift = a
            case (nil, let b?): shift = b
            case (nil, nil): shift = Point(x: 0, y: 0)
            }
            result.append(Point(x: points[index].x + shift.x * distance, y: points[index].y + shift.y * distance))
        }
        return result
    }
}
