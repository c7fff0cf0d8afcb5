import Foundation
import Testing

@testable import Basemap

/// Joining a line layer's pieces (LineChains) gives exactly what the plain way of joining
/// them gives (ReferenceLineChains, LineChains as it was before it was made faster): the same
/// chains, in the same order, each running the same way.
struct LineChainsTests {
    /// Every line layer's pieces and every polygon layer's ring edges in the San Francisco
    /// tiles, as the painter hands them over.
    @Test(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
    func realLayersJoinAsBefore() throws {
        var tiles: [(String, [UInt8])] = []
        let folder = SharedFixtures.url("sanfrancisco-z14")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".mvt") }).sorted() {
            tiles.append((name, [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))))
        }
        var joined = 0
        for (name, bytes) in tiles {
            let tile = try PreparedTile(decoding: bytes)
            for (layerName, layer) in tile.layers {
                var lines: [[TilePoint]] = []
                var edges: [[TilePoint]] = []
                for feature in layer.features {
                    for part in feature.parts {
                        let range = layer.part(Int(part))
                        if feature.type == .lineString {
                            lines.append(Array(layer.points[range]))
                        } else if feature.type == .polygon {
                            for index in range {
                                let next = index + 1 < range.upperBound ? index + 1 : range.lowerBound
                                edges.append([layer.points[index], layer.points[next]])
                            }
                        }
                    }
                }
                for pieces in [lines, edges, lines + edges] where !pieces.isEmpty {
                    let expected = ReferenceLineChains.join(pieces)
                    #expect(LineChains.join(pieces) == expected, "\(name) \(layerName)")
                    joined += expected.count < pieces.count ? 1 : 0
                }
            }
        }
        #expect(joined > 20)
    }

    /// Random pieces on a small grid: many meeting points of three and more, repeats both ways,
    /// rings, single points.
    @Test func randomPiecesJoinAsBefore() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var pieces: [[TilePoint]] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let length = Int.random(in: 1...5, using: &generator)
                var piece = (0..<length).map { _ in
                    TilePoint(x: Int32.random(in: 0...4, using: &generator), y: Int32.random(in: 0...4, using: &generator))
                }
                if Bool.random(using: &generator), let first = piece.first { piece.append(first) }
                pieces.append(piece)
                if Int.random(in: 0..<5, using: &generator) == 0 { pieces.append(Bool.random(using: &generator) ? piece : piece.reversed()) }
            }
            #expect(LineChains.join(pieces) == ReferenceLineChains.join(pieces), "round \(round): \(pieces)")
        }
    }
}

/// LineChains as it was before it was made faster: the oracle.
enum ReferenceLineChains {
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
