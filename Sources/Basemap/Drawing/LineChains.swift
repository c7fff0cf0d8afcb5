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

enum LineChains {
    /// One end of a piece: the piece's index and whether it is the last point.
    private struct End: Hashable {
        let piece: Int
        let isLast: Bool
    }

    /// The pieces as joined polylines (closed ones repeat their first point at the end).
    static func join(_ pieces: [[TilePoint]]) -> [[TilePoint]] {
        var unique: [[TilePoint]] = []
        var seen = Set<[TilePoint]>()
        for piece in pieces where piece.count >= 2 {
            guard !seen.contains(piece), !seen.contains(Array(piece.reversed())) else { continue }
            seen.insert(piece)
            unique.append(piece)
        }
        guard unique.count > 1 else { return unique }
        let partners = pairEnds(unique)
        var used = [Bool](repeating: false, count: unique.count)
        var result: [[TilePoint]] = []
        for start in unique.indices where !used[start] {
            used[start] = true
            var chain = unique[start]
            // Forwards from the start piece's last point, then backwards from its first.
            var end = End(piece: start, isLast: true)
            while let next = partners[end], !used[next.piece] {
                used[next.piece] = true
                let piece = unique[next.piece]
                chain.append(contentsOf: next.isLast ? piece.reversed().dropFirst() : piece.dropFirst())
                end = End(piece: next.piece, isLast: !next.isLast)
            }
            end = End(piece: start, isLast: false)
            while let previous = partners[end], !used[previous.piece] {
                used[previous.piece] = true
                let piece = unique[previous.piece]
                chain.insert(contentsOf: previous.isLast ? piece.dropLast() : piece.reversed().dropLast(), at: 0)
                end = End(piece: previous.piece, isLast: !previous.isLast)
            }
            result.append(chain)
        }
        return result
    }

    /// Which end continues which, at every point where pieces meet.
    private static func pairEnds(_ pieces: [[TilePoint]]) -> [End: End] {
        var byPoint: [TilePoint: [End]] = [:]
        for (index, piece) in pieces.enumerated() {
            guard let first = piece.first, let last = piece.last, first != last else { continue }
            byPoint[first, default: []].append(End(piece: index, isLast: false))
            byPoint[last, default: []].append(End(piece: index, isLast: true))
        }
        var partners: [End: End] = [:]
        for ends in byPoint.values where ends.count >= 2 {
            if ends.count == 2 {
                partners[ends[0]] = ends[1]
                partners[ends[1]] = ends[0]
                continue
            }
            // Unit directions leaving the meeting point along each piece.
            let directions = ends.map { end -> (Double, Double) in
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
            for a in ends.indices {
                for b in ends.indices where b > a {
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
                partners[ends[candidate.a]] = ends[candidate.b]
                partners[ends[candidate.b]] = ends[candidate.a]
            }
        }
        return partners
    }
}
