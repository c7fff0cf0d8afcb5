// Dashing: cuts a polyline into the pieces a dash pattern keeps, measured along its length,
// the way Cairo does (the pattern runs on across vertices; an odd-length pattern is used
// twice; each dash is then stroked with the line's caps and joins). Contract: patterns that
// cannot be drawn (no lengths, a negative or non-finite length, all lengths zero) leave the
// line solid (nil); the number of dashes is capped so a tiny pattern on a long line cannot
// make millions of pieces.

enum Dasher {
    /// Past this many dashes per polyline the line is drawn solid instead.
    static let maximumDashes = 100_000

    /// The dash pieces of a polyline, or nil when the pattern cannot be used.
    static func dash(_ polyline: Polyline, pattern: DashPattern) -> [Polyline]? {
        var lengths = pattern.lengths
        guard !lengths.isEmpty, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }), pattern.offset.isFinite else { return nil }
        if lengths.count % 2 == 1 { lengths += lengths }
        let period = lengths.reduce(0, +)
        guard period > 0 else { return nil }
        var points = polyline.points
        if polyline.isClosed, let first = points.first { points.append(first) }
        guard points.count >= 2 else { return nil }
        var total = 0.0
        for index in 1..<points.count { total += (points[index] - points[index - 1]).length }
        guard total.isFinite, total / period * Double(lengths.count) < Double(maximumDashes) else { return nil }

        // Where the line starts in the pattern.
        var phase = pattern.offset.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        var slot = 0
        // Skip whole slots; a zero-length dash at the very start stays (a dot at the start).
        while phase > lengths[slot] || (phase == lengths[slot] && lengths[slot] > 0) {
            phase -= lengths[slot]
            slot = (slot + 1) % lengths.count
        }
        var remaining = lengths[slot] - phase
        var on = slot % 2 == 0
        var pieces: [Polyline] = []
        var current: [Point] = on ? started(at: points[0]) : []
        for index in 1..<points.count {
            var start = points[index - 1]
            let end = points[index]
            var segment = (end - start).length
            while segment > remaining {
                let cut = start + (end - start) * (remaining / segment)
                if on {
                    current.append(cut)
                    pieces.append(Polyline(points: current, isClosed: false))
                    current = []
                } else {
                    current = started(at: cut)
                }
                segment -= remaining
                start = cut
                on.toggle()
                slot = (slot + 1) % lengths.count
                remaining = lengths[slot]
                // Zero-length dashes: the dash is a single point (a dot with round caps).
                while remaining == 0 {
                    if on {
                        pieces.append(Polyline(points: [start], isClosed: false))
                        current = []
                    } else {
                        current = started(at: start)
                    }
                    on.toggle()
                    slot = (slot + 1) % lengths.count
                    remaining = lengths[slot]
                }
            }
            remaining -= segment
            if on { current.append(end) }
        }
        if on && !current.isEmpty { pieces.append(Polyline(points: current, isClosed: false)) }
        // A dash of length zero is one point, however it came about.
        return pieces.map { piece in
            piece.points.allSatisfy({ $0 == piece.points[0] }) ? Polyline(points: [piece.points[0]], isClosed: false) : piece
        }
    }

    /// A dash's points, starting at `point`, with room for the usual few more (one
    /// allocation instead of a literal's and its growth).
    @inline(__always)
    private static func started(at point: Point) -> [Point] {
        var points: [Point] = []
        points.reserveCapacity(4)
        points.append(point)
        return points
    }
}
