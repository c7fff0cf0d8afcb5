// Tables over a route polyline that make every navigator question O(1) or O(window): Geo's
// PolylineMeasure for the cumulative distances and interpolation, and navigation's own
// cumulative times (traffic-aware and free-flow) and per-segment speed limits. Segment
// projection is Geo's LocalPlane; the navigator adds its own scoring (heading, expected
// progress) on top, which is why it does not use PolylineTracker's window search.

import Geo

struct RouteMeasure: Sendable {
    /// A place on the route: segment `segment` (point i to i + 1), `fraction` of the way.
    struct Position: Hashable, Codable, Sendable {
        var segment: Int
        var fraction: Double
        /// Metres from the route's start.
        var meters: Double

        static let start = Position(segment: 0, fraction: 0, meters: 0)
    }

    /// A location projected onto one segment.
    struct Projection {
        var position: Position
        /// Metres from the location to the route.
        var offsetMeters: Double
        /// Cosine of the angle between a heading and the segment's direction (1 when no
        /// heading was given).
        var headingCosine: Double
    }

    /// The polyline and its cumulative distances.
    let line: PolylineMeasure
    /// Metres from the start to each point (the line's table, shared).
    let meters: [Double]
    /// Seconds from the start to each point (traffic-aware when the route has durations).
    let seconds: [Double]
    /// Free-flow seconds from the start to each point, when the route has both kinds.
    let freeFlowSeconds: [Double]?
    /// Speed limit of each segment in km/h, 0 where unknown; empty when the route has none.
    let speedLimitsKph: [Double]

    var pointCount: Int { meters.count }
    var segmentCount: Int { meters.count - 1 }
    var totalMeters: Double { line.totalMeters }

    /// Validates `route` (see ``NavRoute/validate(limits:)``) and builds its tables.
    init(route: NavRoute, defaultSpeed: Double) throws(NavRouteError) {
        guard let line = PolylineMeasure(try route.validate()) else {
            throw NavRouteError(path: "encodedPolyline", message: "is not a valid polyline")
        }
        self.init(line: line, route: route, defaultSpeed: defaultSpeed)
    }

    /// Builds the tables over a validated route's points. Routes without durations are
    /// timed at `defaultSpeed` m/s.
    init(line: PolylineMeasure, route: NavRoute, defaultSpeed: Double) {
        self.line = line
        let m = line.cumulativeMeters
        meters = m
        let points = line.points
        func accumulate(_ durations: [Double]) -> [Double] {
            var s = [0.0]
            s.reserveCapacity(durations.count + 1)
            for d in durations { s.append(s[s.count - 1] + d) }
            return s
        }
        if let durations = route.segmentDurationsSeconds {
            seconds = accumulate(durations)
        } else {
            seconds = m.map { $0 / max(defaultSpeed, 0.1) }
        }
        if route.segmentDurationsSeconds != nil, let free = route.freeFlowSegmentDurationsSeconds {
            freeFlowSeconds = accumulate(free)
        } else {
            freeFlowSeconds = nil
        }
        if let spans = route.speedLimits, !spans.isEmpty {
            var limits = [Double](repeating: 0, count: max(0, points.count - 1))
            for span in spans {
                for s in span.startPolylinePointIndex..<span.endPolylinePointIndex { limits[s] = span.speedLimitKph }
            }
            speedLimitsKph = limits
        } else {
            speedLimitsKph = []
        }
    }

    func point(_ i: Int) -> LatLng { line.points[i] }

    /// The location at a position.
    func location(at p: Position) -> LatLng {
        line.point(onSegment: min(p.segment, pointCount - 1), fraction: p.fraction)
    }

    /// Seconds from the start to a position.
    func seconds(at p: Position) -> Double {
        let i = p.segment
        guard i + 1 < pointCount else { return seconds[seconds.count - 1] }
        return seconds[i] + p.fraction * (seconds[i + 1] - seconds[i])
    }

    /// Free-flow seconds from the start to a position, when known.
    func freeFlowSeconds(at p: Position) -> Double? {
        guard let free = freeFlowSeconds else { return nil }
        let i = p.segment
        guard i + 1 < pointCount else { return free[free.count - 1] }
        return free[i] + p.fraction * (free[i + 1] - free[i])
    }

    /// The speed limit where a position is, km/h, or nil.
    func speedLimitKph(at p: Position) -> Double? {
        guard p.segment < speedLimitsKph.count else { return nil }
        let limit = speedLimitsKph[p.segment]
        return limit > 0 ? limit : nil
    }

    /// The bearing of a segment, degrees.
    func bearing(segment i: Int) -> Double {
        guard i + 1 < pointCount else { return i > 0 ? bearing(segment: i - 1) : 0 }
        return Earth.initialBearing(from: point(i), to: point(i + 1))
    }

    /// Projects the plane's origin onto segment `i`. `headingX/Y` is a unit vector (east,
    /// north) of the vehicle's heading, or zero.
    @inline(__always)
    func project(_ plane: LocalPlane, headingX: Double, headingY: Double, segment i: Int) -> Projection {
        let points = line.points
        let nearest = plane.nearest(on: points[i], points[i + 1])
        let dx = nearest.directionX
        let dy = nearest.directionY
        var cosine = 1.0
        if headingX != 0 || headingY != 0 {
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0 { cosine = (headingX * dx + headingY * dy) / length }
        }
        let t = nearest.fraction
        return Projection(
            position: Position(segment: i, fraction: t, meters: meters[i] + t * (meters[i + 1] - meters[i])),
            offsetMeters: nearest.squaredDistance.squareRoot() * LocalPlane.metersPerDegree, headingCosine: cosine)
    }
}
