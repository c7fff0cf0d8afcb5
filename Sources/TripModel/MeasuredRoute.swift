import Geo

/// A vehicle's route segment measured: the polyline as stored on the vehicle, with the place,
/// coordinates and distance along it of every 64th point, computed once when the route is set
/// and kept (by the stores, apart from the vehicle's row) so that a location update decodes
/// and measures only the stretch of route around the vehicle, not the whole route (issue 30).
public struct MeasuredRoute: Hashable, Sendable {
    /// The route segment as the vehicle holds it (Google encoded polyline, precision 5).
    public let polyline: String
    /// The polyline measured at its checkpoints.
    package let line: MeasuredPolyline
    /// The paths from any place on it to its end, cut without encoding them again.
    let remainders: RouteRemainders
    /// The stretch of the route last decoded for the vehicle, kept for its next updates; nil
    /// where none is kept (``withoutKeptStretch``), and each update measures its own.
    package let kept: KeptStretch?

    /// Decodes and measures a route segment; nil when it does not decode to a valid line.
    public init?(polyline: String) {
        guard let decoded = MeasuredPolyline.decoding(polyline) else { return nil }
        self.polyline = polyline
        line = decoded.line
        remainders = RouteRemainders(decoded.measure, line: decoded.line, exact: decoded.exact)
        kept = KeptStretch(for: decoded.line, whole: decoded.measure)
    }

    /// A route segment from its checkpoints as stored (no distance is computed): where
    /// ``pathsCutFromPolyline`` was true for it, nothing more is decoded; otherwise the whole
    /// line is, once, for its paths.
    package init(line: MeasuredPolyline, pathsCutFromPolyline: Bool) {
        polyline = line.encoded
        self.line = line
        if pathsCutFromPolyline {
            remainders = RouteRemainders(cutFrom: line)
            kept = KeptStretch()
        } else {
            let whole = line.wholeMeasure()
            remainders = RouteRemainders(whole, line: line, exact: false)
            kept = KeptStretch(for: line, whole: whole)
        }
    }

    /// Whether the first leg's paths are cut from the polyline itself (it is exactly its points'
    /// encoding and no path leaves a vertex out): then a stored route needs nothing but its
    /// checkpoints (``init(line:pathsCutFromPolyline:)``).
    package var pathsCutFromPolyline: Bool { remainders.cutFromPolyline }

    /// About how many bytes its paths hold beyond the polyline and its checkpoints: none where
    /// they are cut from the polyline, else their own encoding and what it leaves out.
    package var pathBytes: Int { remainders.ownBytes }

    /// Length of the route in metres.
    var totalMeters: Double { line.totalMeters }

    /// The whole route's vertices and distances, decoded again: for what reads every vertex
    /// (the route's profile, a new route's first snap, a path with the driver's traffic), which
    /// happens when the route changes.
    package func wholeMeasure() -> PolylineMeasure {
        kept?.wholeLine(of: line) ?? line.wholeMeasure()
    }

    /// The same route keeping no stretch between updates: for a cache whose memory is better
    /// spent holding more vehicles than on their stretches (``TripStore/DecodedRowCaches``).
    /// Every answer is the same; an update measures the stretch it needs instead.
    package var withoutKeptStretch: MeasuredRoute {
        MeasuredRoute(polyline: polyline, line: line, remainders: remainders, kept: nil)
    }

    private init(polyline: String, line: MeasuredPolyline, remainders: RouteRemainders, kept: KeptStretch?) {
        self.polyline = polyline
        self.line = line
        self.remainders = remainders
        self.kept = kept
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
