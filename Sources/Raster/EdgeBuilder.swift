// Edge builder. Contract: takes closed contours in device pixels (Double), rejects any
// contour set holding a NaN or infinite coordinate (nothing is drawn), clips every edge to
// the canvas and hands the scan converter line segments in 24.8 fixed point whose y lies in
// [0, height] and x in [0, width], horizontal ones included (they bound clusters of the
// sweep, see ScanConverter). Clipping keeps coverage exact inside the canvas:
// - parts above or below the canvas are dropped (cover never crosses rows);
// - parts right of the canvas are dropped (cover flows only rightwards);
// - parts left of the canvas become vertical edges on x = 0, which keeps their winding.
// Shared vertices are converted once, so adjacent edges meet exactly in fixed point.

enum EdgeBuilder {
    /// Coordinates beyond this are clamped before clipping so that differences of two
    /// coordinates cannot overflow a Double; nothing that large can be visible.
    private static let limit = 1e15

    /// Feeds the contours' edges to the converter; returns false (adding nothing) when any
    /// coordinate is not finite.
    static func add(_ contours: Contours, to converter: inout ScanConverter) -> Bool {
        for point in contours.points where !point.isFinite { return false }
        let width = Double(converter.width)
        let height = Double(converter.height)
        var start = 0
        contours.points.withUnsafeBufferPointer { points in
            for end in contours.ends {
                if end - start >= 2 {
                    if isInside(points, start, end, width: width, height: height) {
                        // The common case on maps: small shapes wholly inside; nothing to clip.
                        // Each vertex converted to fixed point once, for both its edges.
                        var previousX = fixed(points[end - 1].x)
                        var previousY = fixed(points[end - 1].y)
                        for index in start..<end {
                            let x = fixed(points[index].x)
                            let y = fixed(points[index].y)
                            converter.addLine(previousX, previousY, x, y)
                            previousX = x
                            previousY = y
                        }
                    } else {
                        var previous = clamp(points[end - 1])
                        for index in start..<end {
                            let current = clamp(points[index])
                            clipAndAdd(previous, current, width: width, height: height, to: &converter)
                            previous = current
                        }
                    }
                }
                start = end
            }
        }
        return true
    }

    /// True when every point of the contour lies inside the canvas (edges included).
    @inline(__always)
    private static func isInside(
        _ points: UnsafeBufferPointer<Point>, _ start: Int, _ end: Int, width: Double,
        height: Double
    ) -> Bool {
        for index in start..<end {
            let point = points[index]
            if !(point.x >= 0 && point.x <= width && point.y >= 0 && point.y <= height) { return false }
        }
        return true
    }

    private static func clamp(_ point: Point) -> Point {
        Point(x: min(max(point.x, -limit), limit), y: min(max(point.y, -limit), limit))
    }

    private static func clipAndAdd(
        _ a: Point, _ b: Point, width: Double, height: Double,
        to converter: inout ScanConverter
    ) {
        var p0 = a
        var p1 = b
        if p0.y == p1.y {
            // Horizontal: no cover, but the converter notes where it lies (see addLine).
            guard p0.y > 0, p0.y < height, p0.x < width || p1.x < width else { return }
            emit(Point(x: min(max(p0.x, 0), width), y: p0.y), Point(x: min(max(p1.x, 0), width), y: p1.y), to: &converter)
            return
        }
        // Vertical clip to [0, height].
        if (p0.y <= 0 && p1.y <= 0) || (p0.y >= height && p1.y >= height) { return }
        if p0.y < 0 { p0 = intersectY(p0, p1, 0) } else if p0.y > height { p0 = intersectY(p0, p1, height) }
        if p1.y < 0 { p1 = intersectY(p1, p0, 0) } else if p1.y > height { p1 = intersectY(p1, p0, height) }
        // Right of the canvas: nothing visible.
        if p0.x >= width && p1.x >= width { return }
        if p0.x > width { p0 = intersectX(p0, p1, width) }
        if p1.x > width { p1 = intersectX(p1, p0, width) }
        // Left of the canvas: project onto x = 0.
        if p0.x <= 0 && p1.x <= 0 {
            emit(Point(x: 0, y: p0.y), Point(x: 0, y: p1.y), to: &converter)
        } else if p0.x < 0 {
            let crossing = intersectX(p0, p1, 0)
            emit(Point(x: 0, y: p0.y), crossing, to: &converter)
            emit(crossing, p1, to: &converter)
        } else if p1.x < 0 {
            let crossing = intersectX(p0, p1, 0)
            emit(p0, crossing, to: &converter)
            emit(crossing, Point(x: 0, y: p1.y), to: &converter)
        } else {
            emit(p0, p1, to: &converter)
        }
    }

    /// The point on segment (outside → inside) where y equals `y`.
    private static func intersectY(_ outside: Point, _ inside: Point, _ y: Double) -> Point {
        let t = (y - outside.y) / (inside.y - outside.y)
        return Point(x: outside.x + (inside.x - outside.x) * t, y: y)
    }

    /// The point on segment (outside → inside) where x equals `x`.
    private static func intersectX(_ outside: Point, _ inside: Point, _ x: Double) -> Point {
        let t = (x - outside.x) / (inside.x - outside.x)
        return Point(x: x, y: outside.y + (inside.y - outside.y) * t)
    }

    @inline(__always)
    private static func emit(_ a: Point, _ b: Point, to converter: inout ScanConverter) {
        converter.addLine(fixed(a.x), fixed(a.y), fixed(b.x), fixed(b.y))
    }

    /// 24.8 fixed point, rounded to nearest (half away from zero). Written as a truncating
    /// conversion because `rounded()` is a libm call on baseline x86-64.
    @inline(__always)
    static func fixed(_ value: Double) -> Int {
        let scaled = value * 256
        return Int(scaled >= 0 ? scaled + 0.5 : scaled - 0.5)
    }
}
