// Clipping closed contours to a convex polygon (Sutherland–Hodgman, one half-plane per edge).
// Contract: for every point inside the clip polygon, the winding number of the clipped contour
// equals that of the original, and it is 0 outside; the parts of a contour outside are
// replaced by runs along the clip edges. Such runs may double back on themselves (for
// concave contours), which adds no area: the scan converter's cover cancels exactly. Two
// shapes clipped to neighbouring polygons that share an edge (same two corner points) meet
// on exactly that line, so their coverage sums without a seam — how map tiles are drawn.

/// A convex polygon to clip contours to, in device pixels.
package struct ConvexClip: Hashable, Sendable {
    /// The corners, in order (either orientation).
    package let corners: [Point]
    /// Edge lines as (normal, offset): inside where normal · p ≥ offset.
    private let edges: [Edge]
    private let minX: Double, minY: Double, maxX: Double, maxY: Double

    private struct Edge: Hashable, Sendable {
        let start: Point
        let end: Point
        let normal: Point
        let offset: Double
    }

    /// A clip polygon from convex corners in order; fewer than three, or non-finite
    /// corners, give a clip that removes everything.
    package init(corners: [Point]) {
        self.corners = corners
        let valid = corners.count >= 3 && corners.allSatisfy(\.isFinite)
        var area = 0.0
        if valid {
            for index in corners.indices {
                area += corners[index].cross(corners[(index + 1) % corners.count])
            }
        }
        var edges: [Edge] = []
        if valid && area != 0 {
            let sign = area > 0 ? 1.0 : -1.0
            for index in corners.indices {
                let start = corners[index]
                let end = corners[(index + 1) % corners.count]
                let direction = end - start
                // Inside lies to the left of each edge for positive (clockwise on screen) area.
                let normal = Point(x: -direction.y * sign, y: direction.x * sign)
                edges.append(Edge(start: start, end: end, normal: normal, offset: normal.dot(start)))
            }
        }
        self.edges = edges
        minX = corners.map(\.x).min() ?? 0
        minY = corners.map(\.y).min() ?? 0
        maxX = corners.map(\.x).max() ?? 0
        maxY = corners.map(\.y).max() ?? 0
    }

    /// A rectangle as a clip polygon.
    package init(rect: Rect) {
        self.init(corners: [Point(rect.x, rect.y), Point(rect.maxX, rect.y), Point(rect.maxX, rect.maxY), Point(rect.x, rect.maxY)])
    }

    /// True when the clip removes everything.
    var isEmpty: Bool { edges.isEmpty }

    /// True when the point lies inside or on the boundary.
    package func contains(_ point: Point) -> Bool {
        guard !edges.isEmpty else { return false }
        for edge in edges where edge.normal.dot(point) < edge.offset { return false }
        return true
    }

    /// How a run of points relates to the clip: all inside, all outside one edge, or mixed.
    enum Relation {
        case inside, outside, crossing
    }

    func relation(of points: ArraySlice<Point>) -> Relation {
        guard !edges.isEmpty else { return .outside }
        let box = points.extremes
        if box.maxX < minX || box.minX > maxX || box.maxY < minY || box.minY > maxY { return .outside }
        var allInside = true
        for edge in edges {
            var inside = 0
            for point in points where edge.normal.dot(point) >= edge.offset { inside += 1 }
            if inside == 0 { return .outside }
            if inside != points.count { allInside = false }
        }
        return allInside ? .inside : .crossing
    }

    /// Appends `points` (one closed contour) clipped to the polygon onto `output`.
    func clip(_ points: ArraySlice<Point>, into output: inout [Point], scratch: inout [Point], next: inout [Point]) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: points)
        for edge in edges {
            guard let last = scratch.last else { break }
            next.removeAll(keepingCapacity: true)
            var previous = last
            var previousInside = edge.normal.dot(previous) >= edge.offset
            for current in scratch {
                let currentInside = edge.normal.dot(current) >= edge.offset
                if currentInside != previousInside {
                    next.append(Self.intersection(previous, current, edge))
                }
                if currentInside { next.append(current) }
                previous = current
                previousInside = currentInside
            }
            swap(&scratch, &next)
        }
        output.append(contentsOf: scratch)
    }

    /// The parts of an open polyline inside the polygon, in order (Cyrus–Beck clipping of
    /// each segment; consecutive inside segments stay one part).
    package func clipPolyline(_ points: ArraySlice<Point>) -> [[Point]] {
        guard !edges.isEmpty, points.count >= 2 else { return [] }
        if relation(of: points) == .inside { return [Array(points)] }
        var parts: [[Point]] = []
        var current: [Point] = []
        var previous = points[points.startIndex]
        for point in points.dropFirst() {
            defer { previous = point }
            // The parameter range of previous → point inside every half-plane.
            var enter = 0.0
            var leave = 1.0
            let direction = point - previous
            for edge in edges {
                let start = edge.normal.dot(previous) - edge.offset
                let change = edge.normal.dot(direction)
                if change == 0 {
                    if start < 0 {
                        enter = 1
                        leave = 0
                    }
                } else {
                    let t = -start / change
                    if change > 0 { enter = max(enter, t) } else { leave = min(leave, t) }
                }
                if enter > leave { break }
            }
            guard enter <= leave else {
                if current.count >= 2 { parts.append(current) }
                current = []
                continue
            }
            let a = enter > 0 ? previous + direction * enter : previous
            let b = leave < 1 ? previous + direction * leave : point
            if current.isEmpty || enter > 0 {
                if current.count >= 2 { parts.append(current) }
                current = [a]
            }
            current.append(b)
            if leave < 1 {
                if current.count >= 2 { parts.append(current) }
                current = []
            }
        }
        if current.count >= 2 { parts.append(current) }
        return parts
    }

    /// Where segment a–b crosses the edge's line. The point is computed along the edge
    /// itself (from its two corners), so contours clipped by neighbouring polygons that share
    /// the edge land on exactly the same line.
    private static func intersection(_ a: Point, _ b: Point, _ edge: Edge) -> Point {
        let da = edge.normal.dot(a) - edge.offset
        let db = edge.normal.dot(b) - edge.offset
        let t = da / (da - db)
        let crossing = a + (b - a) * t
        // Project onto the edge line: parameter along start → end.
        let direction = edge.end - edge.start
        let length = direction.lengthSquared
        guard length > 0 else { return crossing }
        let u = (crossing - edge.start).dot(direction) / length
        return edge.start + direction * u
    }
}
