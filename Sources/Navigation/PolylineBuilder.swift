// Joins step or leg geometries into one route polyline on Google's precision-5 grid, so
// the route re-encodes exactly, with repeated points (where one step's geometry ends and
// the next begins) stored once, and spreads each step's duration over its segments.

import Geo

struct PolylineBuilder {
    private(set) var points: [LatLng] = []
    /// Duration of each segment (point i to i + 1), seconds.
    private(set) var segmentDurations: [Double] = []
    private var lastLat = Int.min
    private var lastLng = Int.min

    /// Appends points and returns, for each, the index it has in the route.
    mutating func append(_ newPoints: [LatLng]) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(newPoints.count)
        for p in newPoints {
            let lat = Int((p.latitude * 1e5).rounded())
            let lng = Int((p.longitude * 1e5).rounded())
            if lat != lastLat || lng != lastLng {
                points.append(LatLng(latitude: Double(lat) / 1e5, longitude: Double(lng) / 1e5))
                if points.count > 1 { segmentDurations.append(0) }
                lastLat = lat
                lastLng = lng
            }
            indices.append(points.count - 1)
        }
        return indices
    }

    /// Spreads `seconds` over the segments from point `from` to point `to` in proportion to
    /// their lengths (evenly when they have none); nothing when `from == to`.
    mutating func addDuration(_ seconds: Double, from: Int, to: Int) {
        guard to > from, seconds > 0 else { return }
        var total = 0.0
        for i in from..<to { total += Earth.distance(points[i], points[i + 1]) }
        for i in from..<to {
            let share = total > 0 ? Earth.distance(points[i], points[i + 1]) / total : 1 / Double(to - from)
            segmentDurations[i] += seconds * share
        }
    }

    /// Metres along the points from index `from` to index `to`.
    func length(from: Int, to: Int) -> Double {
        guard to > from else { return 0 }
        var total = 0.0
        for i in from..<to { total += Earth.distance(points[i], points[i + 1]) }
        return total
    }
}
