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
    /// Whether every path is cut from the route's own polyline.
    let cutFromPolyline: Bool

    /// The remainders of `measure` (the whole of `line`); `exact` where `line`'s encoding is
    /// exactly what encoding its vertices writes (Google's format, precision 5).
    init(_ measure: PolylineMeasure, line: MeasuredPolyline, exact: Bool) {
        let meters = measure.cumulativeMeters
        var dropped: [Int] = []
        for index in 0..<measure.segmentCount where meters[index + 1] - meters[index] < TrafficPath.mergeMeters {
            dropped.append(index)
        }
        if dropped.isEmpty {
            // Cut from the polyline where it is their encoding (a cache miss reads every
            // route again: reading costs less than writing).
            kept = exact ? EncodedPolylineSuffixes(exactEncodingOf: line) : EncodedPolylineSuffixes(measure.points)
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
        cutFromPolyline = exact && dropped.isEmpty
    }

    /// The remainders of a line known to keep every vertex in every path, and whose encoding
    /// is exactly its vertices' (``cutFromPolyline`` was true for it): nothing is decoded.
    init(cutFrom line: MeasuredPolyline) {
        kept = EncodedPolylineSuffixes(exactEncodingOf: line)
        dropped = []
        cutFromPolyline = true
    }

    /// The encoded path from `begin` metres to the end of `line` (the line these remainders
    /// were made of), decoding only the stretch around `begin` (unless `keptStretch` holds it): exactly what encoding
    /// ``TrafficPath``'s points for it without traffic gives.
    func encodedPath(on line: MeasuredPolyline, from begin: Double, keptStretch: KeptStretch?) -> String {
        guard begin < line.totalMeters else { return kept.encoding(from: kept.count - 1) }
        // As PolylineMeasure.sliceWithIndexMap starts a slice, and TrafficPath merges its first
        // two points.
        let measure = line.stretch(from: begin, through: begin, kept: keptStretch)
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
        return kept.encoding(from: rank(of: measure.firstIndex + next), after: meters < TrafficPath.mergeMeters ? nil : start)
    }

    /// About how many bytes these hold beyond the route's own polyline and checkpoints.
    var ownBytes: Int {
        guard !cutFromPolyline else { return 0 }
        return kept.encoded.utf8.count + MemoryLayout<PolylineCheckpoint>.stride * (kept.count / EncodedPolylineSuffixes.checkpointStride + 1)
            + MemoryLayout<Int>.stride * dropped.count
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
