// The part of a route a vehicle's `currentRouteSegment` carries: from the start to the first
// destination, which is what riders' trip views and previews draw and measure. Fleet Engine
// bounds that field, so a longer leg is thinned evenly (both ends kept): riders see the same
// road at the scale such a leg is drawn, and the navigator keeps the full route.

import Geo
import TripModel

extension NavRoute {
    /// The route from its first point to its first destination as a Google encoded
    /// polyline (precision 5) within the bounds of a vehicle's `currentRouteSegment`.
    /// `points` are the route's decoded points (what ``validate(limits:)`` returns).
    public func firstLegPolyline(points: [LatLng]) -> String {
        let end = min(destinations.first?.polylinePointIndex ?? points.count - 1, points.count - 1)
        let leg = Array(points[0...max(0, end)])
        var budget = TripModel.Limits.maximumPolylinePoints
        while true {
            let encoded = EncodedPolyline.encode(Self.thinned(leg, to: budget))
            if encoded.utf8.count <= TripModel.Limits.maximumEncodedPolylineLength || budget <= 2 { return encoded }
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
