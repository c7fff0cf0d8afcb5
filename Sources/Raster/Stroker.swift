// Stroker. Contract: turns polylines (user space) and a StrokeStyle into closed contours
// whose nonzero fill is the stroke: every point within half the width of the line, plus
// caps and joins. Overlaps are fine, since the result is filled once with nonzero, so a
// line crossing itself is not blended twice.
// - Consecutive vertices closer than `mergeDistance` (1 px, less for thin lines) are
//   merged: tiny segments have no reliable direction, joins computed from them make
//   spikes, and their overlapping offsets over-cover edge pixels.
// - An open polyline becomes one contour: the left offset forwards, the end cap, the right
//   offset backwards, the start cap. A closed one becomes two loops of opposite direction.
//   Every outline winds the same way (negative shoelace area), so subpaths never cancel.
// - On the outer side of a turn the join (round, miter, bevel) is added. On the inner side
//   the offsets meet at their intersection when it lies within both segments (half of each,
//   leaving the other half to the neighbouring join); otherwise the outline goes through
//   the vertex itself. The small loop this makes winds the same way as the outline, so
//   nonzero fills it; this keeps short segments and 180° reversals correct. Intersections
//   are preferred because overlapping outline inside one pixel adds up in the scan
//   converter's area accumulation and over-covers edge pixels.
// - Round joins and caps use the vertices of a regular polygon "pen" whose vertex count
//   keeps the chord error under the tolerance, the approach Cairo takes, so results agree.

import Foundation

struct Stroker {
    /// Vertices closer than this are merged: a pixel, or an eighth of the width for thin
    /// lines, so the merge never shows against the line's own width. Measured against
    /// Cairo on a 20,000-vertex route, merging at 1 px cut the mean difference by 2.5×
    /// compared with 1/16 px (fewer overlapping outline pieces inside edge pixels).
    let mergeDistance: Double

    let halfWidth: Double
    let style: StrokeStyle
    /// Unit-circle pen vertices; a round join uses those inside its arc.
    private let pen: [Point]
    private let penStep: Double

    /// A stroker for a style; `tolerance` bounds the error of round joins in user space.
    init(style: StrokeStyle, tolerance: Double = 0.1) {
        self.style = style
        halfWidth = style.width / 2
        mergeDistance = min(1, style.width / 8)
        let count = Self.penVertexCount(radius: halfWidth, tolerance: tolerance)
        penStep = 2 * Double.pi / Double(count)
        pen = (0..<count).map { index in
            let angle = Double(index) * 2 * Double.pi / Double(count)
            return Point(x: cos(angle), y: sin(angle))
        }
    }

    /// Vertices of a regular polygon whose chords stay within `tolerance` of a circle.
    static func penVertexCount(radius: Double, tolerance: Double) -> Int {
        guard radius.isFinite, radius > 0 else { return 4 }
        if tolerance >= radius { return 4 }
        let angle = acos(1 - tolerance / radius)
        var count = Int((2 * Double.pi / angle).rounded(.up))
        count = min(max(count, 4), 1024)
        return count % 2 == 0 ? count : count + 1
    }

    /// Appends the stroke outline of one polyline to `contours`, cut into dashes first when
    /// a usable pattern is given.
    func stroke(_ polyline: Polyline, dash: DashPattern?, into contours: inout Contours) {
        guard let dash, let pieces = Dasher.dash(polyline, pattern: dash) else {
            stroke(polyline, into: &contours)
            return
        }
        for piece in pieces { stroke(piece, into: &contours) }
    }

    /// Appends the stroke outline of one polyline to `contours`.
    func stroke(_ polyline: Polyline, into contours: inout Contours) {
        guard halfWidth > 0, halfWidth.isFinite else { return }
        // Degenerate input draws nothing (merging would otherwise skip NaN vertices).
        for point in polyline.points where !point.isFinite { return }
        let points = Self.merged(polyline.points, closed: polyline.isClosed, distance: mergeDistance)
        if points.count == 1 || (points.count == 2 && polyline.isClosed && points[0] == points[1]) {
            dot(at: points[0], into: &contours)
            return
        }
        guard points.count >= 2 else { return }
        if polyline.isClosed && points.count >= 3 {
            loop(points, reversed: false, into: &contours)
            loop(points, reversed: true, into: &contours)
        } else {
            // Both sides walk the same points, the second backwards (no reversed copy).
            let count = points.count
            side(points, reversed: false, into: &contours)
            cap(at: points[count - 1], direction: direction(points[count - 2], points[count - 1]), into: &contours)
            side(points, reversed: true, into: &contours)
            cap(at: points[0], direction: direction(points[1], points[0]), into: &contours)
            contours.closeContour()
        }
    }

    /// Drops vertices within `distance` of the last kept one; the end point is kept
    /// exactly (it replaces the vertex before it instead), so caps sit where asked.
    static func merged(_ points: [Point], closed: Bool, distance: Double) -> [Point] {
        guard var last = points.first else { return [] }
        let limit = distance * distance
        // Most lines have nothing to merge: keep them as they are, without a copy.
        if points.count > 2, !closed || (points[points.count - 1] - points[0]).lengthSquared >= limit {
            var previous = last
            var spaced = true
            for point in points.dropFirst() {
                if (point - previous).lengthSquared < limit {
                    spaced = false
                    break
                }
                previous = point
            }
            if spaced { return points }
        }
        var kept: [Point] = []
        kept.reserveCapacity(points.count)
        kept.append(last)
        for point in points.dropFirst() {
            if (point - last).lengthSquared >= limit {
                kept.append(point)
                last = point
            }
        }
        if let end = points.last, kept.count >= 1, kept[kept.count - 1] != end {
            if kept.count >= 2 { kept[kept.count - 1] = end } else { kept.append(end) }
        }
        if kept.count == 2 && (kept[1] - kept[0]).lengthSquared < limit {
            kept.removeLast()
        }
        if closed, kept.count > 2, (kept[kept.count - 1] - kept[0]).lengthSquared < limit {
            kept.removeLast()
        }
        return kept
    }

    private func direction(_ from: Point, _ to: Point) -> Point {
        let delta = to - from
        var length = (delta.x * delta.x + delta.y * delta.y).squareRoot()
        if !length.isFinite {
            // Coordinates near the Double range: hypot does not overflow.
            length = hypot(delta.x, delta.y)
        }
        return length > 0 && length.isFinite ? Point(x: delta.x / length, y: delta.y / length) : Point(x: 1, y: 0)
    }

    /// The offset to the left of a direction (a quarter turn), at half the width.
    @inline(__always)
    private func normal(_ direction: Point) -> Point {
        Point(x: -direction.y * halfWidth, y: direction.x * halfWidth)
    }

    /// The left offset of an open polyline, start to end (end to start when `reversed`), with joins.
    private func side(_ points: [Point], reversed: Bool, into contours: inout Contours) {
        let last = points.count - 1
        @inline(__always) func vertex(_ index: Int) -> Point { points[reversed ? last - index : index] }
        var previous = direction(vertex(0), vertex(1))
        var previousLength = (vertex(1) - vertex(0)).length
        contours.points.append(vertex(0) + normal(previous))
        for index in 1..<last {
            let next = direction(vertex(index), vertex(index + 1))
            let nextLength = (vertex(index + 1) - vertex(index)).length
            join(
                at: vertex(index), incoming: previous, outgoing: next,
                room: min(previousLength, nextLength) / 2, into: &contours)
            previous = next
            previousLength = nextLength
        }
        contours.points.append(vertex(last) + normal(previous))
    }

    /// One closed offset loop (walking the points backwards when `reversed`): a join at every vertex.
    private func loop(_ points: [Point], reversed: Bool, into contours: inout Contours) {
        let count = points.count
        @inline(__always) func vertex(_ index: Int) -> Point { points[reversed ? count - 1 - index : index] }
        var previous = direction(vertex(count - 1), vertex(0))
        var previousLength = (vertex(0) - vertex(count - 1)).length
        for index in 0..<count {
            let following = vertex((index + 1) % count)
            let next = direction(vertex(index), following)
            let nextLength = (following - vertex(index)).length
            join(
                at: vertex(index), incoming: previous, outgoing: next,
                room: min(previousLength, nextLength) / 2, into: &contours)
            previous = next
            previousLength = nextLength
        }
        contours.closeContour()
    }

    /// Adds the join at `point`; `room` is how far the inner offsets may be trimmed back
    /// along each segment without overlapping the next join's trim.
    private func join(at point: Point, incoming: Point, outgoing: Point, room: Double, into contours: inout Contours) {
        let n0 = normal(incoming)
        let n1 = normal(outgoing)
        let cross = incoming.cross(outgoing)
        let dot = incoming.dot(outgoing)
        if dot > 0 && abs(cross) < 1e-9 {
            // Straight on: nothing to join.
            contours.points.append(point + n0)
            return
        }
        if cross > 0 {
            // Inner side of the turn. Where the two offset lines meet within both segments,
            // their intersection is the exact boundary and nothing overlaps: overlaps
            // inside one pixel would add up in the cell accumulation and over-cover edge
            // pixels. Otherwise go through the vertex (see the file comment).
            let trim = halfWidth * cross / (1 + dot)
            if dot > -0.99 && trim <= room {
                contours.points.append(point + (n0 + n1) * (1 / (1 + dot)))
                return
            }
            contours.points.append(point + n0)
            contours.points.append(point)
            contours.points.append(point + n1)
            return
        }
        contours.points.append(point + n0)
        switch style.join {
        case .round:
            arc(around: point, from: n0, sweep: abs(atan2(cross, dot)), into: &contours)
        case .miter:
            // Miter length over width is 1/sin(θ/2) for the angle θ between the segments;
            // within the limit iff 2 ≤ limit²·(1 + cos φ) for the turning angle φ.
            if dot > -1 + 1e-12, 2 <= style.miterLimit * style.miterLimit * (1 + dot) {
                contours.points.append(point + (n0 + n1) * (1 / (1 + dot)))
            }
        case .bevel:
            break
        }
        contours.points.append(point + n1)
    }

    /// Adds the pen vertices strictly inside the arc that starts at offset `from` and turns
    /// by `sweep` radians in the negative direction (the outer side of a turn or a cap).
    private func arc(around center: Point, from start: Point, sweep: Double, into contours: inout Contours) {
        guard sweep > 1e-9 else { return }
        let startAngle = atan2(start.y, start.x)
        let endAngle = startAngle - sweep
        let epsilon = 1e-9
        var k = Int(((startAngle - epsilon) / penStep).rounded(.down))
        let last = Int(((endAngle + epsilon) / penStep).rounded(.up))
        let count = pen.count
        while k >= last {
            let vertex = pen[((k % count) + count) % count]
            contours.points.append(center + vertex * halfWidth)
            k -= 1
        }
    }

    /// The cap at the end of a side walked in `direction`; it leads to the other side.
    private func cap(at point: Point, direction: Point, into contours: inout Contours) {
        let n = normal(direction)
        switch style.cap {
        case .butt:
            break
        case .square:
            let reach = direction * halfWidth
            contours.points.append(point + n + reach)
            contours.points.append(point - n + reach)
        case .round:
            arc(around: point, from: n, sweep: Double.pi, into: &contours)
        }
    }

    /// A zero-length stroke: a dot for round caps, an axis-aligned square for square caps.
    /// Wound like every other outline here (negative shoelace area), so dots never cancel
    /// overlapping parts of the same stroke.
    private func dot(at point: Point, into contours: inout Contours) {
        switch style.cap {
        case .butt:
            return
        case .round:
            for vertex in pen.reversed() { contours.points.append(point + vertex * halfWidth) }
        case .square:
            let h = halfWidth
            contours.points.append(contentsOf: [
                Point(x: point.x - h, y: point.y - h), Point(x: point.x - h, y: point.y + h),
                Point(x: point.x + h, y: point.y + h), Point(x: point.x + h, y: point.y - h),
            ])
        }
        contours.closeContour()
    }
}
