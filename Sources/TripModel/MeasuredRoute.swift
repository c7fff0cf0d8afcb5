import Geo

/// A vehicle's route segment with its distances measured: the polyline as stored on the
/// vehicle and its cumulative distances, computed once when the route is set and kept (by the
/// stores, apart from the vehicle's row) so that a location update finds the vehicle's place
/// on it without measuring or decoding the whole route again (issue 30).
public struct MeasuredRoute: Hashable, Sendable {
    /// The route segment as the vehicle holds it (Google encoded polyline, precision 5).
    public let polyline: String
    /// Its vertices and cumulative distances.
    public let measure: PolylineMeasure
    /// The paths from any place on it to its end, cut without encoding them again.
    let remainders: RouteRemainders

    /// Decodes and measures a route segment; nil when it does not decode to a valid line.
    public init?(polyline: String) {
        guard let decoded = EncodedPolylineSuffixes.decoding(polyline), let measure = PolylineMeasure(decoded.points) else { return nil }
        self.polyline = polyline
        self.measure = measure
        remainders = RouteRemainders(measure, suffixes: decoded.suffixes)
    }

    /// A route segment with the cumulative distances stored with it (no distance is
    /// computed); nil when they do not fit its vertices.
    package init?(polyline: String, cumulativeMeters: [Double]) {
        guard let decoded = EncodedPolylineSuffixes.decoding(polyline),
            let measure = PolylineMeasure(points: decoded.points, cumulativeMeters: cumulativeMeters)
        else { return nil }
        self.polyline = polyline
        self.measure = measure
        remainders = RouteRemainders(measure, suffixes: decoded.suffixes)
    }

    /// The vehicle's route segment measured: `known` when it measures the segment the vehicle
    /// holds (comparing the polylines costs nothing when they share storage, as a stored
    /// record's do), measured anew otherwise; nil without a segment.
    package static func of(_ vehicle: Vehicle, known: MeasuredRoute?) -> MeasuredRoute? {
        guard let polyline = vehicle.currentRouteSegment else { return nil }
        if let known, known.polyline == polyline { return known }
        return MeasuredRoute(polyline: polyline)
    }

    /// Routes are equal when their polylines are: the measure follows from the polyline.
    public static func == (a: MeasuredRoute, b: MeasuredRoute) -> Bool { a.polyline == b.polyline }

    /// Hashes the polyline (the measure follows from it).
    public func hash(into hasher: inout Hasher) { hasher.combine(polyline) }
}
