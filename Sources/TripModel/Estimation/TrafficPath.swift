import Geo

/// Cuts a stretch of a route out of a longer one and carries the driver's traffic report
/// (road stretches by metres from the route's start) over to it as rider-style intervals by
/// vertex index. Vertices are inserted where traffic changes, so every interval starts and
/// ends exactly on a vertex.
struct TrafficPath {
    /// Consecutive vertices closer than this are merged.
    static let mergeMeters = 0.5

    /// The path's vertices, or its encoding where it was cut from one (``RouteRemainders``).
    private enum Line {
        case points([LatLng])
        case encoded(String)
    }

    /// The path.
    private var line: Line
    /// Traffic along the path; empty when there is no traffic data.
    var intervals: [SpeedReadingInterval]
    /// Seconds by the estimator's pace (``RoutePace``), traffic included.
    var modelSeconds: Double
    /// Length in metres.
    var meters: Double

    /// A path as a Google encoded polyline (precision 5) with its traffic.
    typealias EncodedPath = (encoded: String, intervals: [SpeedReadingInterval])

    /// The path as a Google encoded polyline (precision 5).
    var encodedPath: String { Self.encoded(line) }

    private static func encoded(_ line: Line) -> String {
        switch line {
        case .points(let points): EncodedPolyline.encode(points)
        case .encoded(let encoded): encoded
        }
    }

    /// The part of `route` from `start` metres to its end, with traffic from `stretches`
    /// (nil when the driver sent no traffic: then no intervals), timed by `pace`.
    init(remainderOf route: MeasuredRoute, from start: Double, stretches: [RoadStretch]?, pace: RoutePace) {
        let total = route.totalMeters
        let begin = min(max(0, start), total)
        let pieces = Self.pieces(from: begin, to: total, stretches: stretches)
        (line, intervals) = Self.line(along: route, from: begin, pieces: pieces, traffic: stretches != nil)
        modelSeconds = pieces.reduce(0) { $0 + pace.seconds(from: $1.from, to: $1.to, traffic: $1.speed) }
        meters = total - begin
    }

    /// The path and traffic of ``init(remainderOf:from:stretches:pace:)``, untimed: what a
    /// store puts back on a vehicle it saved without them.
    static func remainderPath(of route: MeasuredRoute, from start: Double, stretches: [RoadStretch]?) -> EncodedPath {
        let total = route.totalMeters
        let begin = min(max(0, start), total)
        let pieces = Self.pieces(from: begin, to: total, stretches: stretches)
        let (line, intervals) = Self.line(along: route, from: begin, pieces: pieces, traffic: stretches != nil)
        return (TrafficPath.encoded(line), intervals)
    }

    /// The path along `route` from `begin` through `pieces`: without traffic cut from the
    /// route's remainders, in time that does not grow with the route (issue 30); with traffic
    /// gathered vertex by vertex from the whole route decoded, with its intervals.
    private static func line(
        along route: MeasuredRoute, from begin: Double, pieces: [(from: Double, to: Double, speed: TrafficSpeed)], traffic: Bool
    ) -> (Line, [SpeedReadingInterval]) {
        guard traffic else { return (.encoded(route.remainders.encodedPath(on: route.line, from: begin, keptStretch: route.kept)), []) }
        let cut = Self.cut(route.wholeMeasure(), pieces: pieces, traffic: true)
        return (.points(cut.points), cut.intervals)
    }

    /// The part of `measure` from `start` metres to its end, without traffic, timed by `pace`.
    init(measure: PolylineMeasure, from start: Double, pace: RoutePace) {
        let total = measure.totalMeters
        let begin = min(max(0, start), total)
        let pieces = Self.pieces(from: begin, to: total, stretches: nil)
        line = .points(Self.cut(measure, pieces: pieces, traffic: false).points)
        intervals = []
        modelSeconds = pieces.reduce(0) { $0 + pace.seconds(from: $1.from, to: $1.to, traffic: $1.speed) }
        meters = total - begin
    }

    /// The path along `measure` through `pieces` (in order, end to end), with vertices where
    /// traffic changes, and, when `traffic`, the intervals of each piece's speed.
    static func cut(
        _ measure: PolylineMeasure, pieces: [(from: Double, to: Double, speed: TrafficSpeed)], traffic: Bool
    ) -> (points: [LatLng], intervals: [SpeedReadingInterval]) {
        var points: [LatLng] = []
        var intervals: [SpeedReadingInterval] = []
        for piece in pieces {
            let part = measure.sliceWithIndexMap(from: piece.from, to: piece.to)
            let startIndex = max(0, points.count - 1)
            Self.append(part, of: measure, to: &points)
            let endIndex = points.count - 1
            guard traffic, endIndex > startIndex else { continue }
            if let last = intervals.last, last.speed == piece.speed {
                intervals[intervals.count - 1].endPolylinePointIndex = endIndex
            } else {
                intervals.append(SpeedReadingInterval(startPolylinePointIndex: startIndex, endPolylinePointIndex: endIndex, speed: piece.speed))
            }
        }
        return (points, intervals)
    }

    /// The traffic of the route from `begin` to `end` metres as pieces of one speed each:
    /// stretches not reported flow normally; without any report, the speed is unspecified.
    static func pieces(
        from begin: Double, to end: Double, stretches: [RoadStretch]?
    ) -> [(from: Double, to: Double, speed: TrafficSpeed)] {
        var pieces: [(from: Double, to: Double, speed: TrafficSpeed)] = []
        if let stretches {
            var cursor = begin
            for stretch in stretches.sorted(by: { $0.offsetMeters < $1.offsetMeters }) {
                let a = max(cursor, Double(stretch.offsetMeters))
                let b = min(end, Double(stretch.offsetMeters + stretch.lengthMeters))
                guard b > a else { continue }
                if a > cursor { pieces.append((cursor, a, .normal)) }
                pieces.append((a, b, stretch.style == .trafficJam ? .trafficJam : stretch.style == .slowerTraffic ? .slow : .normal))
                cursor = b
            }
            if cursor < end || pieces.isEmpty { pieces.append((cursor, end, .normal)) }
        } else {
            pieces.append((begin, end, .unspecified))
        }
        return pieces
    }

    /// Appends a slice of `measure` (its first point is the path's last, unless the path is
    /// empty). A vertex within ``mergeMeters`` of the last replaces it instead (a snapped
    /// start beside a route vertex would only add a degenerate segment), so the later point —
    /// where traffic changes — wins. Between two consecutive vertices of the route the
    /// distance is the measure's (issue 30: a location update measured the whole rest of a
    /// long route again here); only the interpolated ends are measured.
    private static func append(_ part: PolylineSlice, of measure: PolylineMeasure, to points: inout [LatLng]) {
        let positions = part.sourceVertexPositions
        if points.isEmpty { points.append(part.points[0]) }
        points.reserveCapacity(points.count + part.points.count)
        for j in part.points.indices.dropFirst() {
            let point = part.points[j]
            let from = positions[j - 1]
            let meters: Double
            if from.rounded(.down) == from, positions[j] == from + 1 {
                let k = Int(from)
                meters = measure.cumulativeMeters[k + 1] - measure.cumulativeMeters[k]
            } else {
                meters = Earth.distance(points[points.count - 1], point)
            }
            if meters < mergeMeters { points[points.count - 1] = point } else { points.append(point) }
        }
    }

    /// A straight path between two points whose length is the great-circle distance times
    /// `detourFactor` (the fleet's near it, ``LinePace``, else ``Estimation/detourFactor``): a
    /// stand-in for a leg no route is known for, driven at `secondsPerMeter` (the fleet's pace
    /// near it, ``LinePace``), else at the vehicle type's typical speed.
    init(
        straightFrom a: LatLng, to b: LatLng, pace: RoutePace, secondsPerMeter: Double? = nil, detourFactor: Double = Estimation.detourFactor
    ) {
        line = .points([a, b])
        intervals = []
        meters = Earth.distance(a, b) * detourFactor
        modelSeconds = meters * (secondsPerMeter ?? 1 / pace.speed) * pace.ownRatio
    }
}
