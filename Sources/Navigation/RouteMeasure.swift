// Tables over a route polyline that make every navigator question O(1) or O(window):
// cumulative distance and time at each point, per-segment speed limits, and projection
// of a location onto a segment. Internal on purpose: Geo is getting PolylineMeasure /
// PolylineTracker; when they land, the cumulative distances and the segment projection
// here are what to swap for them (the time and speed-limit tables stay navigation's).

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

    let latitudes: [Double]
    let longitudes: [Double]
    /// Metres from the start to each point.
    let meters: [Double]
    /// Seconds from the start to each point (traffic-aware when the route has durations).
    let seconds: [Double]
    /// Free-flow seconds from the start to each point, when the route has both kinds.
    let freeFlowSeconds: [Double]?
    /// Speed limit of each segment in km/h, 0 where unknown; empty when the route has none.
    let speedLimitsKph: [Double]

    var pointCount: Int { latitudes.count }
    var segmentCount: Int { latitudes.count - 1 }
    var totalMeters: Double { meters[meters.count - 1] }

    /// Builds the tables. Routes without durations are timed at `defaultSpeed` m/s.
    init(points: [LatLng], route: NavRoute, defaultSpeed: Double) {
        latitudes = points.map(\.latitude)
        longitudes = points.map(\.longitude)
        var m = [0.0]
        m.reserveCapacity(points.count)
        for i in 1..<max(1, points.count) { m.append(m[i - 1] + Earth.distance(points[i - 1], points[i])) }
        meters = m
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

    func point(_ i: Int) -> LatLng { LatLng(latitude: latitudes[i], longitude: longitudes[i]) }

    /// The location at a position.
    func location(at p: Position) -> LatLng {
        let i = p.segment
        guard i + 1 < pointCount else { return point(pointCount - 1) }
        return Earth.interpolate(point(i), point(i + 1), fraction: p.fraction)
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

    /// The position `metres` from the start, searching forward from segment `hint`.
    func position(atMeters target: Double, from hint: Int) -> Position {
        var i = max(0, min(hint, segmentCount - 1))
        while i > 0 && meters[i] > target { i -= 1 }
        while i + 1 < segmentCount && meters[i + 1] <= target { i += 1 }
        let length = meters[i + 1] - meters[i]
        let f = length > 0 ? min(1, max(0, (target - meters[i]) / length)) : 1
        return Position(segment: i, fraction: f, meters: meters[i] + f * length)
    }

    /// Projects a location onto segment `i`, in a local flat frame around the location
    /// (exact enough for segments up to tens of kilometres). `headingX/Y` is a unit vector
    /// (east, north) of the vehicle's heading, or zero.
    @inline(__always)
    func project(
        latitude: Double, longitude: Double, metresPerDegreeLongitude kx: Double,
        headingX: Double, headingY: Double, segment i: Int
    ) -> Projection {
        let ky = Self.metresPerDegreeLatitude
        var ax = longitudes[i] - longitude
        var bx = longitudes[i + 1] - longitude
        if ax > 180 { ax -= 360 } else if ax < -180 { ax += 360 }
        if bx > 180 { bx -= 360 } else if bx < -180 { bx += 360 }
        ax *= kx
        bx *= kx
        let ay = (latitudes[i] - latitude) * ky
        let by = (latitudes[i + 1] - latitude) * ky
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? -(ax * dx + ay * dy) / lengthSquared : 0
        t = min(1, max(0, t))
        let px = ax + t * dx
        let py = ay + t * dy
        let length = lengthSquared.squareRoot()
        let cosine = length > 0 && (headingX != 0 || headingY != 0) ? (headingX * dx + headingY * dy) / length : 1
        let along = meters[i] + t * (meters[i + 1] - meters[i])
        return Projection(
            position: Position(segment: i, fraction: t, meters: along),
            offsetMeters: (px * px + py * py).squareRoot(), headingCosine: cosine)
    }

    static let metresPerDegreeLatitude = Earth.radiusMeters * Double.pi / 180
}
