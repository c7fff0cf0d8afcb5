// Distances along a route polyline, built once per route and queried per vehicle update.
//
// Lengths are great-circle (haversine) distances per segment, summed. Nearest-point queries
// use a local equirectangular projection centred on the query point: longitude differences
// are scaled by cos(latitude of the point), and each segment is treated as straight in that
// plane. Over a road segment (metres to a kilometre) this is within centimetres of the
// geodesic answer, and it costs no trigonometry per segment, which matters when a 10,000-point
// route is searched. Distances far from the point (kilometres) are less exact, but there they
// only rank candidates that cannot win. Longitude differences are wrapped to ±180°, so lines
// crossing the antimeridian measure correctly.

/// Cumulative distances along a polyline, with nearest-point projection, interpolation and
/// slicing by distance.
public struct PolylineMeasure: Sendable, Equatable {
    /// The vertices, as given.
    public let points: [LatLng]
    /// Distance in metres from the first vertex to each vertex along the line; starts at 0.
    package let cumulativeMeters: [Double]
    /// The place of ``points``' first in the whole line: 0, unless this measures a stretch of
    /// a longer line (``MeasuredPolyline/stretch(from:through:)``), whose distances are then
    /// from the whole line's start.
    package let firstIndex: Int
    /// Whether ``points`` run to the whole line's end.
    package let reachesEnd: Bool

    /// Builds the measure; nil when `points` is empty or holds an invalid coordinate
    /// (see ``LatLng/isValid``), so that every query on a measure has an answer.
    public init?(_ points: [LatLng]) {
        guard !points.isEmpty, points.allSatisfy(\.isValid) else { return nil }
        var cumulative: [Double] = []
        cumulative.reserveCapacity(points.count)
        var total = 0.0
        cumulative.append(0)
        for index in points.indices.dropFirst() {
            total += Earth.distance(points[index - 1], points[index])
            cumulative.append(total)
        }
        self.points = points
        self.cumulativeMeters = cumulative
        firstIndex = 0
        reachesEnd = true
    }

    /// A stretch of a longer line: its points from the line's `firstIndex`-th on, with their
    /// distances from the line's start (at least one point, as many distances, not
    /// decreasing). Positions are clamped to the stretch, and projections name the line's
    /// segments.
    package init(stretch points: [LatLng], cumulativeMeters: [Double], firstIndex: Int, reachesEnd: Bool) {
        self.points = points
        self.cumulativeMeters = cumulativeMeters
        self.firstIndex = firstIndex
        self.reachesEnd = reachesEnd
    }

    /// Whether this measures the whole line, not a stretch of it.
    package var isWholeLine: Bool { firstIndex == 0 && reachesEnd }

    /// Length of the whole line in metres (of a stretch: the distance of its last point).
    public var totalMeters: Double { cumulativeMeters[cumulativeMeters.count - 1] }

    /// Number of segments: one less than the vertices, and 0 for a single point.
    package var segmentCount: Int { points.count - 1 }

    // MARK: Positions along the line

    /// The position at distance `d` (clamped to the line) as a fractional vertex index:
    /// 12.25 is a quarter of the way from vertex 12 to vertex 13. Where duplicate vertices
    /// share a distance, the last of them is reported.
    package func vertexIndex(atDistance d: Double) -> Double {
        let (index, fraction) = position(atDistance: d)
        return Double(index) + fraction
    }

    /// The distance along the line of a fractional vertex index (clamped to the vertices);
    /// the inverse of ``vertexIndex(atDistance:)``.
    public func distance(atVertexIndex position: Double) -> Double {
        guard position.isFinite else { return position > 0 ? totalMeters : 0 }
        let clamped = max(0, min(Double(points.count - 1), position))
        let index = min(Int(clamped), points.count - 1)
        let fraction = clamped - Double(index)
        guard fraction > 0 else { return cumulativeMeters[index] }
        return cumulativeMeters[index] + fraction * (cumulativeMeters[index + 1] - cumulativeMeters[index])
    }

    /// The point at distance `d` metres from the start, clamped to the line's ends; vertices
    /// are returned exactly.
    public func point(atDistance d: Double) -> LatLng {
        let (index, fraction) = position(atDistance: d)
        return point(onSegment: index, fraction: fraction)
    }

    /// Vertex `index` and the fraction of the segment after it at distance `d`: `index` is the
    /// last vertex whose distance is at most `d`, so the segment after it has a positive
    /// length (or `index` is the last vertex and the fraction is 0).
    package func position(atDistance d: Double) -> (index: Int, fraction: Double) {
        let start = cumulativeMeters[0]
        let target = d.isNaN ? start : max(start, min(totalMeters, d))
        // Binary search for the last vertex with cumulative distance <= target.
        var low = 0
        var high = cumulativeMeters.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if cumulativeMeters[mid] <= target { low = mid } else { high = mid - 1 }
        }
        guard low < points.count - 1 else { return (low, 0) }
        let length = cumulativeMeters[low + 1] - cumulativeMeters[low]
        return (low, min(1, (target - cumulativeMeters[low]) / length))
    }

    /// The point at `fraction` (0...1) of segment `index` (vertex `index` to `index + 1`),
    /// exact at both ends; the last vertex for `index` past the last segment.
    package func point(onSegment index: Int, fraction: Double) -> LatLng {
        if fraction <= 0 || index >= points.count - 1 { return points[index] }
        if fraction >= 1 { return points[index + 1] }
        return Earth.interpolate(points[index], points[index + 1], fraction: fraction)
    }
}
