// Joining a line layer's pieces before stroking. A road comes as many features that meet end
// to end (ways split at junctions), and some lines come twice (a tram and a light rail on one
// track). Stroked separately, their caps and bodies overlap, and overlapping parts of one
// fill over-cover the pixels along their edges (the scan converter sums areas); so do the
// outlines of buildings that share a wall, each stroking it once. So, per tile
// and paint group, exact duplicates (either direction) are dropped and pieces are joined
// where they meet end to end: where two ends meet, always; where three or more meet, the
// pairs that run on most nearly straight (turning less than 60°), the rest left apart.
// Rings come in as their edges, so a wall two rings share is stroked once.
// With round caps and joins the stroke of a joined line is exactly the union of its pieces'.
// Cost: a draw with nothing kept joins every line layer of its tiles, so the work is linear
// but for one sort of the ends: duplicates are found by their end points and length before any
// two pieces are compared, the ends are grouped by sorting rather than in per-point arrays, and
// the pairs are kept in an array indexed by end.

enum LineChains {
    /// One end of a piece: the piece's index and whether it is the last point.
    private struct End: Hashable {
        let piece: Int
        let isLast: Bool

        /// Its place in an array with two slots per piece.
        var slot: Int { piece * 2 + (isLast ? 1 : 0) }
    }

    /// The pieces as joined polylines (closed ones repeat their first point at the end).
    static func join(_ pieces: [[TilePoint]]) -> [[TilePoint]] {
        let unique = withoutDuplicates(pieces)
        guard unique.count > 1 else { return unique }
        let partners = pairEnds(unique)
        func partner(_ end: End) -> End? {
            let slot = partners[end.slot]
            return slot < 0 ? nil : End(piece: slot / 2, isLast: slot % 2 == 1)
        }
        var used = [Bool](repeating: false, count: unique.count)
        var result: [[TilePoint]] = []
        var before: [TilePoint] = []
        for start in unique.indices where !used[start] {
            used[start] = true
            var chain = unique[start]
            // Forwards from the start piece's last point, then backwards from its first.
            var end = End(piece: start, isLast: true)
            while let next = partner(end), !used[next.piece] {
                used[next.piece] = true
                let piece = unique[next.piece]
                chain.append(contentsOf: next.isLast ? piece.reversed().dropFirst() : piece.dropFirst())
                end = End(piece: next.piece, isLast: !next.isLast)
            }
            // What goes before the start piece, gathered back to front and turned round once.
            before.removeAll(keepingCapacity: true)
            end = End(piece: start, isLast: false)
            while let previous = partner(end), !used[previous.piece] {
                used[previous.piece] = true
                let piece = unique[previous.piece]
                if previous.isLast { before.append(contentsOf: piece.dropLast().reversed()) } else { before.append(contentsOf: piece.dropFirst()) }
                end = End(piece: previous.piece, isLast: !previous.isLast)
            }
            if !before.isEmpty { chain = before.reversed() + chain }
            result.append(chain)
        }
        return result
    }

    /// The pieces of at least two points, in order, without those that repeat an earlier one
    /// (in either direction).
    private static func withoutDuplicates(_ pieces: [[TilePoint]]) -> [[TilePoint]] {
        // A repeat has the same end points (either way round) and length as the piece it
        // repeats: only pieces that share those are compared point by point.
        struct Shape: Hashable {
            let low: TilePoint
            let high: TilePoint
            let count: Int
        }
        var firstOfShape: [Shape: Int] = [:]
        var nextOfShape: [Int] = []
        var unique: [[TilePoint]] = []
        unique.reserveCapacity(pieces.count)
        for piece in pieces where piece.count >= 2 {
            let first = piece[0]
            let last = piece[piece.count - 1]
            let ordered = (first.x, first.y) <= (last.x, last.y)
            let shape = Shape(low: ordered ? first : last, high: ordered ? last : first, count: piece.count)
            var candidate = firstOfShape[shape] ?? -1
            var repeated = false
            while candidate >= 0 && !repeated {
                let other = unique[candidate]
                repeated = other == piece || other.elementsEqual(piece.reversed())
                candidate = nextOfShape[candidate]
            }
            if repeated { continue }
            nextOfShape.append(firstOfShape[shape] ?? -1)
            firstOfShape[shape] = unique.count
            unique.append(piece)
        }
        return unique
    }

    /// Which end continues which, at every point where pieces meet: by end slot, the partner's
    /// slot or -1.
    private static func pairEnds(_ pieces: [[TilePoint]]) -> [Int] {
        var ends: [(point: TilePoint, end: End)] = []
        ends.reserveCapacity(pieces.count * 2)
        for (index, piece) in pieces.enumerated() {
            guard let first = piece.first, let last = piece.last, first != last else { continue }
            ends.append((first, End(piece: index, isLast: false)))
            ends.append((last, End(piece: index, isLast: true)))
        }
        // Ends at one point together, each point's in the order they were added.
        ends.sort { ($0.point.x, $0.point.y, $0.end.slot) < ($1.point.x, $1.point.y, $1.end.slot) }
        var partners = [Int](repeating: -1, count: pieces.count * 2)
        func pair(_ a: End, _ b: End) {
            partners[a.slot] = b.slot
            partners[b.slot] = a.slot
        }
        var start = 0
        while start < ends.count {
            var stop = start + 1
            while stop < ends.count && ends[stop].point == ends[start].point { stop += 1 }
            defer { start = stop }
            if stop - start == 2 { pair(ends[start].end, ends[start + 1].end) }
            guard stop - start > 2 else { continue }
            let meeting = ends[start..<stop].map(\.end)
            // Unit directions leaving the meeting point along each piece.
            let directions = meeting.map { end -> (Double, Double) in
                let piece = pieces[end.piece]
                let (from, to) =
                    end.isLast
                    ? (piece[piece.count - 1], piece[piece.count - 2])
                    : (piece[0], piece[1])
                let dx = Double(to.x) - Double(from.x)
                let dy = Double(to.y) - Double(from.y)
                let length = (dx * dx + dy * dy).squareRoot()
                return length > 0 ? (dx / length, dy / length) : (0, 0)
            }
            var candidates: [(dot: Double, a: Int, b: Int)] = []
            for a in meeting.indices {
                for b in meeting.indices where b > a {
                    let dot = directions[a].0 * directions[b].0 + directions[a].1 * directions[b].1
                    // Leaving in nearly opposite directions: the line runs on (cos 120° = −0.5).
                    if dot < -0.5 { candidates.append((dot, a, b)) }
                }
            }
            var taken = Set<Int>()
            for candidate in candidates.sorted(by: { $0.dot < $1.dot })
            where !taken.contains(candidate.a) && !taken.contains(candidate.b) {
                taken.insert(candidate.a)
                taken.insert(candidate.b)
                pair(meeting[candidate.a], meeting[candidate.b])
            }
        }
        return partners
    }
}
