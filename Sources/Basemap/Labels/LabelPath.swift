// A polyline measured along its length, for placing text along roads: positions and
// directions at any distance, reversal (to keep text upright), and joining pieces of one
// road that meet end to end (a road comes as several features and tile pieces).

import Foundation
import Raster

struct LabelPath {
    let points: [Point]
    /// Distance from the start to each point.
    let distances: [Double]

    init(_ points: [Point]) {
        self.points = points
        var distances = [0.0]
        distances.reserveCapacity(points.count)
        for index in points.indices.dropFirst() {
            distances.append(distances[index - 1] + (points[index] - points[index - 1]).length)
        }
        self.distances = distances
    }

    var length: Double { distances.last ?? 0 }

    var reversed: LabelPath { LabelPath(points.reversed()) }

    /// The point at a distance along the path and the direction (radians, y down) there.
    func position(at distance: Double) -> (point: Point, angle: Double) {
        guard points.count >= 2 else { return (points.first ?? Point(x: 0, y: 0), 0) }
        // Binary search for the segment holding `distance`.
        var low = 0
        var high = distances.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if distances[middle] <= distance { low = middle } else { high = middle }
        }
        let a = points[low]
        let b = points[high]
        let span = distances[high] - distances[low]
        let t = span > 0 ? min(max((distance - distances[low]) / span, 0), 1) : 0
        return (a + (b - a) * t, atan2(b.y - a.y, b.x - a.x))
    }

    /// The distance along the path to the point of it nearest to `point`.
    func distance(to point: Point) -> Double {
        var best = (distance: 0.0, gap: Double.infinity)
        for index in points.indices.dropFirst() {
            let a = points[index - 1]
            let segment = points[index] - a
            let length = segment.length
            let t = length > 0 ? min(max(((point.x - a.x) * segment.x + (point.y - a.y) * segment.y) / (length * length), 0), 1) : 0
            let gap = (a + segment * t - point).length
            if gap < best.gap { best = (distances[index - 1] + length * t, gap) }
        }
        return best.distance
    }

    /// Joins polylines whose ends meet (within a quarter pixel) into longer ones.
    static func chains(_ pieces: [[Point]]) -> [[Point]] {
        struct Key: Hashable {
            let x: Int
            let y: Int
            init(_ point: Point) {
                x = Int((point.x * 4).rounded())
                y = Int((point.y * 4).rounded())
            }
        }
        var pieces = pieces.filter { $0.count >= 2 }
        var used = [Bool](repeating: false, count: pieces.count)
        var byEnd: [Key: [Int]] = [:]
        for (index, piece) in pieces.enumerated() {
            byEnd[Key(piece[0]), default: []].append(index)
            byEnd[Key(piece[piece.count - 1]), default: []].append(index)
        }
        func take(at point: Point, excluding index: Int) -> Int? {
            byEnd[Key(point)]?.first { $0 != index && !used[$0] }
        }
        var result: [[Point]] = []
        for start in pieces.indices where !used[start] {
            used[start] = true
            var chain = pieces[start]
            // Extend forwards, then backwards.
            while let next = take(at: chain[chain.count - 1], excluding: start) {
                used[next] = true
                var piece = pieces[next]
                if Key(piece[0]) != Key(chain[chain.count - 1]) { piece.reverse() }
                chain.append(contentsOf: piece.dropFirst())
            }
            while let previous = take(at: chain[0], excluding: start) {
                used[previous] = true
                var piece = pieces[previous]
                if Key(piece[piece.count - 1]) != Key(chain[0]) { piece.reverse() }
                chain.insert(contentsOf: piece.dropLast(), at: 0)
            }
            pieces[start] = []
            result.append(chain)
        }
        return result
    }
}
