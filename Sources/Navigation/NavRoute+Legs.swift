// The parts of a route between its destinations ("legs"), as a vehicle's
// `currentRouteSegment` and the riders' paths to their later waypoints carry them: leg 0
// runs from the start to the first destination, leg i from destination i-1 to destination i.
// Fleet Engine bounds those fields, so a longer leg is thinned evenly (both ends kept): riders
// see the same road at the scale such a leg is drawn, and the navigator keeps the full route.

import Geo
import TripModel

extension NavRoute {
    /// The route from its first point to its first destination as a Google encoded
    /// polyline (precision 5) within the bounds of a vehicle's `currentRouteSegment`.
    /// `points` are the route's decoded points (what ``validate(limits:)`` returns).
    package func firstLegPolyline(points: [LatLng]) -> String {
        EncodedPolyline.encode(legPoints(0, points: points))
    }

    /// The points of leg `leg` (clamped to the route's legs; the whole route when it has no
    /// destinations), thinned until their encoding fits a `currentRouteSegment`.
    func legPoints(_ leg: Int, points: [LatLng]) -> [LatLng] {
        guard !points.isEmpty else { return [] }
        let last = points.count - 1
        let index = min(max(0, leg), max(0, destinations.count - 1))
        let end = destinations.isEmpty ? last : min(destinations[index].polylinePointIndex, last)
        let start = index == 0 || destinations.isEmpty ? 0 : min(destinations[index - 1].polylinePointIndex, end)
        let leg = Array(points[start...end])
        var budget = TripModel.Limits.maximumPolylinePoints
        while true {
            let thinned = Self.thinned(leg, to: budget)
            if EncodedPolyline.encode(thinned).utf8.count <= TripModel.Limits.maximumEncodedPolylineLength || budget <= 2 {
                return thinned
            }
            budget = budget * 3 / 4
        }
    }

    /// `points` with at most `count` of them, evenly spaced by index, both ends kept.
    static func thinned(_ points: [LatLng], to count: Int) -> [LatLng] {
        guard points.count > count, count >= 2 else { return points }
        let step = Double(points.count - 1) / Double(count - 1)
        return (0..<count).map { points[Int((Double($0) * step).rounded())] }
    }
}
