import Geo

/// The paths from any place on a route segment to its end, as the first leg to a stop shows
/// them when the driver sent no traffic (``TrafficPath``), cut from the route encoded once
/// rather than encoded anew on every location update (issue 30): a location update's work
/// follows what moved, not the route's length.
///
/// Such a path is the vehicle's place on the route followed by the route's vertices after it,
/// each dropped where the next lies within ``TrafficPath/mergeMeters`` (the later point wins).
/// Which vertices those are depends on the route alone, so the vertices kept are encoded once
/// and every path is a suffix of that encoding after the vehicle's place.
struct RouteRemainders: Sendable {
    /// The vertices every path keeps (those it reaches), encoded.
    private let kept: EncodedPolylineSuffixes
    /// The vertices no path keeps: closer than ``TrafficPath/mergeMeters`` to the next.
    private let dropped: [Int]

    /// The remainders of `measure`; `suffixes` are those of its polyline (Google's format,
    /// precision 5) where it was read as the encoding of its vertices.
    init(_ measure: PolylineMeasure, suffixes: EncodedPolylineSuffixes?) {
        let meters = measure.cumulativeMeters
        var dropped: [Int] = []
        for index in 0..<measure.segmentCount where meters[index + 1] - meters[index] < TrafficPath.mergeMeters {
            dropped.append(index)
        }
        if dropped.isEmpty {
            // Read with the polyline where it is their encoding (a cache miss decodes every
            // route again: reading costs less than writing).
            kept = suffixes ?? EncodedPolylineSuffixes(measure.points)
        } else {
            var points: [LatLng] = []
            points.reserveCapacity(measure.points.count - dropped.count)
            var next = 0
            for (index, point) in measure.points.enumerated() {
                if next < dropped.count, dropped[next] == index {
                    next += 1
                } else {
                    points.append(point)
                }
            }
            kept = EncodedPolylineSuffixes(points)
        }
        self.dropped = dropped
    }

    /// The encoded path from `begin` metres (within the line) to the end of `measure` (the line
    /// these remainders were made of): exactly what encoding ``TrafficPath``'s points for it
    /// without traffic gives.
    func encodedPath(on measure: PolylineMeasure, from begin: Double) -> String {
        guard begin < measure.totalMeters else { return kept.encoding(from: kept.count - 1) }
        // As PolylineMeasure.sliceWithIndexMap starts a slice, and TrafficPath merges its first
        // two points.
        let (index, fraction) = measure.position(atDistance: begin)
        let start = measure.point(onSegment: index, fraction: fraction)
        let position = Double(index) + fraction
        let next = index + 1
        let meters: Double
        if position.rounded(.down) == position, Double(next) == position + 1 {
            let whole = Int(position)
            meters = measure.cumulativeMeters[whole + 1] - measure.cumulativeMeters[whole]
        } else {
            meters = Earth.distance(start, measure.points[next])
        }
        return kept.encoding(from: rank(of: next), after: meters < TrafficPath.mergeMeters ? nil : start)
    }

    /// The place among the kept vertices of the first kept vertex at or after `index`.
    private func rank(of index: Int) -> Int {
        var low = 0
        var high = dropped.count
        while low < high {
            let mid = (low + high) / 2
            if dropped[mid] < index { low = mid + 1 } else { high = mid }
        }
        return index - low
    }
}
