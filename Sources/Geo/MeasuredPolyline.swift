// A long route read a stretch at a time (issue 30): a location update needs the few points
// around the vehicle, yet decoding a 20,000-point polyline and keeping its points and
// distances (some 480 KB) cost every update whose vehicle a cache had let go. The line is
// kept as its encoding, with a checkpoint every few points that says where the point's bytes
// start, its coordinates and its distance from the start; a stretch is decoded from the
// checkpoint before it and measured on from there.

/// A polyline (Google's format, precision 5) kept encoded and measured at checkpoints, from
/// which any stretch is decoded and measured with exactly the points and distances
/// ``PolylineMeasure/init(_:)`` gives for the whole line: the distances are summed on from a
/// checkpoint's in the same order, so they are the same doubles bit for bit.
package struct MeasuredPolyline: Sendable {
    /// The encoding.
    package let encoded: String
    /// How many points the line has.
    package let count: Int
    /// Every ``EncodedPolylineSuffixes/checkpointStride``-th point, from the first.
    package let checkpoints: [PolylineCheckpoint]
    /// The distance from the start of each checkpoint.
    package let checkpointMeters: [Double]
    /// The last point (scaled coordinates; its offset is its bytes').
    package let last: PolylineCheckpoint
    /// The length of the line.
    package let totalMeters: Double

    /// Decodes and measures `polyline`: the line, its measure (nil where a point is not a valid
    /// coordinate) and whether the encoding is exactly what ``EncodedPolyline/encode(_:precision:)``
    /// writes for its points. Nil where it does not decode or has no point.
    package static func decoding(_ polyline: String) -> (line: MeasuredPolyline, measure: PolylineMeasure, exact: Bool)? {
        var text = polyline
        var checkpoints: [PolylineCheckpoint] = []
        var last = PolylineCheckpoint(offset: 0, latitude: 0, longitude: 0)
        var exact = true
        let points: [LatLng]? = text.withUTF8 { bytes in
            try? EncodedPolyline.decode(bytes, factor: EncodedPolyline.scale(5)) { point, fewestBytes in
                if !fewestBytes { exact = false }
                if point.index % EncodedPolylineSuffixes.checkpointStride == 0 { checkpoints.append(PolylineCheckpoint(point)) }
                last = PolylineCheckpoint(point)
            }
        }
        guard let points, let measure = PolylineMeasure(points) else { return nil }
        let meters = checkpoints.indices.map { measure.cumulativeMeters[$0 * EncodedPolylineSuffixes.checkpointStride] }
        let line = MeasuredPolyline(
            measured: polyline, count: points.count, checkpoints: checkpoints, checkpointMeters: meters, last: last,
            totalMeters: measure.totalMeters)
        return (line, measure, exact)
    }

    /// A line from its parts as ``decoding(_:)`` made them (read back from storage); nil where
    /// they do not fit together: a checkpoint for every stride of `count` points, each with
    /// its distance, the first at the start, offsets and distances increasing within the
    /// encoding and the line's length.
    package init?(
        encoded: String, count: Int, checkpoints: [PolylineCheckpoint], checkpointMeters: [Double], last: PolylineCheckpoint,
        totalMeters: Double
    ) {
        let stride = EncodedPolylineSuffixes.checkpointStride
        let length = encoded.utf8.count
        guard count > 0, count <= length, checkpoints.count == (count + stride - 1) / stride, checkpointMeters.count == checkpoints.count,
            checkpoints[0].offset == 0, checkpointMeters[0] == 0, last.offset < length, totalMeters.isFinite,
            checkpoints.indices.dropFirst().allSatisfy({
                checkpoints[$0 - 1].offset < checkpoints[$0].offset && checkpointMeters[$0 - 1] <= checkpointMeters[$0]
            }),
            checkpoints[checkpoints.count - 1].offset <= last.offset, checkpointMeters[checkpointMeters.count - 1] <= totalMeters
        else { return nil }
        self.init(
            measured: encoded, count: count, checkpoints: checkpoints, checkpointMeters: checkpointMeters, last: last, totalMeters: totalMeters)
    }

    private init(
        measured encoded: String, count: Int, checkpoints: [PolylineCheckpoint], checkpointMeters: [Double], last: PolylineCheckpoint,
        totalMeters: Double
    ) {
        self.encoded = encoded
        self.count = count
        self.checkpoints = checkpoints
        self.checkpointMeters = checkpointMeters
        self.last = last
        self.totalMeters = totalMeters
    }

    /// The last point.
    package var lastPoint: LatLng { Self.point(last.latitude, last.longitude) }

    /// The measure of the whole line, decoded again.
    package func wholeMeasure() -> PolylineMeasure {
        stretch(from: 0, through: .infinity)
    }

    /// The stretch of the line from the last checkpoint at or before `from` metres up to its
    /// first point farther than `through` metres from the start (or its end): every position
    /// between the two distances, and the segment after it, lies on the stretch, with the
    /// points and distances of the whole line's measure.
    package func stretch(from: Double, through: Double) -> PolylineMeasure {
        var low = 0
        var high = checkpointMeters.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if checkpointMeters[mid] <= from { low = mid } else { high = mid - 1 }
        }
        var total = checkpointMeters[low]
        var previous: LatLng?
        var points: [LatLng] = []
        var meters: [Double] = []
        if through >= totalMeters {
            // To the end: as many points as are left.
            points.reserveCapacity(count - low * EncodedPolylineSuffixes.checkpointStride)
            meters.reserveCapacity(points.capacity)
        }
        let reachesEnd = decodePoints(fromCheckpoint: low) { point in
            // As PolylineMeasure.init sums them: one distance after the other.
            if let previous { total += Earth.distance(previous, point) }
            previous = point
            points.append(point)
            meters.append(total)
            return total <= through
        }
        return PolylineMeasure(
            stretch: points, cumulativeMeters: meters, firstIndex: low * EncodedPolylineSuffixes.checkpointStride, reachesEnd: reachesEnd)
    }

    /// The stretch of `meters.count` points from the line's `firstIndex`-th (a checkpoint's),
    /// whose distances from the start are `meters`: a stretch measured before, its points decoded
    /// again (``KeptStretch``). Nil where the line has fewer points from there.
    func stretch(firstIndex: Int, meters: [Double], reachesEnd: Bool) -> PolylineMeasure? {
        var points: [LatLng] = []
        points.reserveCapacity(meters.count)
        _ = decodePoints(fromCheckpoint: firstIndex / EncodedPolylineSuffixes.checkpointStride) { point in
            points.append(point)
            return points.count < meters.count
        }
        guard points.count == meters.count, !points.isEmpty else { return nil }
        return PolylineMeasure(stretch: points, cumulativeMeters: meters, firstIndex: firstIndex, reachesEnd: reachesEnd)
    }

    /// Decodes the points from the `checkpoint`-th checkpoint on, handing each to `visit` until
    /// it returns false or the line ends; true when no point follows the last one decoded.
    private func decodePoints(fromCheckpoint checkpoint: Int, _ visit: (LatLng) -> Bool) -> Bool {
        let start = checkpoints[checkpoint]
        var text = encoded
        return text.withUTF8 { bytes in
            var offset = start.offset
            var fewestBytes = true
            // The checkpoint's own values are its offsets from the point before it.
            _ = try? EncodedPolyline.readValue(bytes, &offset, fewestBytes: &fewestBytes)
            _ = try? EncodedPolyline.readValue(bytes, &offset, fewestBytes: &fewestBytes)
            var latitude = start.latitude
            var longitude = start.longitude
            var more = visit(Self.point(latitude, longitude))
            while more, offset < bytes.count {
                guard let lat = try? EncodedPolyline.readValue(bytes, &offset, fewestBytes: &fewestBytes),
                    let lng = try? EncodedPolyline.readValue(bytes, &offset, fewestBytes: &fewestBytes)
                else { break }
                latitude &+= lat
                longitude &+= lng
                more = visit(Self.point(latitude, longitude))
            }
            return offset >= bytes.count
        }
    }

    /// A point from its scaled coordinates, as ``EncodedPolyline/decode(_:precision:)`` makes it.
    private static func point(_ latitude: Int, _ longitude: Int) -> LatLng {
        LatLng(latitude: Double(latitude) / factor, longitude: Double(longitude) / factor)
    }

    /// Precision 5's scale.
    private static let factor = EncodedPolyline.scale(5)
}

extension MeasuredPolyline {
    /// Metres of line first decoded beyond the tracker's window on either side, so that its
    /// search past the window's ends mostly stays on the stretch.
    static let stretchMarginMeters = 50.0

    /// Metres of line decoded beyond the window ahead where the stretch is kept for the next
    /// updates (``KeptStretch``): a car at city speeds covers them in a minute or two.
    static let keptLookaheadMeters = 1_000.0

    /// Lines of at most this many points whose length is at most twice what a kept stretch
    /// spans are decoded and kept whole: a stretch would hold most of the line anyway, and the
    /// whole line also serves a vehicle that jumps back.
    static let keptWholeMaxPoints = 2_048

    /// The metres of line a kept stretch spans (window, margins and lookahead).
    private static func keptSpanMeters(_ configuration: PolylineTracker.Configuration) -> Double {
        max(0, configuration.behindMeters) + max(0, configuration.aheadMeters) + 2 * stretchMarginMeters + keptLookaheadMeters
    }

    /// Whether a kept stretch of this line is the whole line.
    func keptWhole(_ configuration: PolylineTracker.Configuration) -> Bool {
        count <= Self.keptWholeMaxPoints && totalMeters <= 2 * Self.keptSpanMeters(configuration)
    }

    /// About how many bytes a ``KeptStretch`` of this line holds once filled (a distance a
    /// point): what a cache that keeps the line must count for it before it is filled.
    package var keptStretchBytes: Int {
        let configuration = PolylineTracker.Configuration()
        let points =
            keptWhole(configuration)
            ? count
            : min(count, Int(Double(count) * Self.keptSpanMeters(configuration) / max(1, totalMeters)) + EncodedPolylineSuffixes.checkpointStride)
        return points * MemoryLayout<Double>.stride
    }

    /// ``stretch(from:through:)``, or the stretch `kept` holds where that holds as much.
    package func stretch(from: Double, through: Double, kept: KeptStretch?) -> PolylineMeasure {
        kept?.stretch(of: self, holding: from, through: through) ?? stretch(from: from, through: through)
    }

    /// What a ``PolylineTracker`` on the whole line, started at `distance`, answers for
    /// `location`: found on a stretch around `distance` where the tracker can tell the whole
    /// line gives the same answer (``PolylineTracker/answersAsWholeLine``); where its search
    /// ran off the stretch (the vehicle far from where it was, along the line), on a stretch
    /// with eight times the margin, and so on; on the whole line where the window held no
    /// match near enough and the whole line must be searched (a location off the line).
    ///
    /// With `kept`, the stretch it holds is searched first, and the stretch decoded (with
    /// ``keptLookaheadMeters`` more ahead, or the whole of a short line) is kept for the next
    /// update.
    package func track(
        _ location: LatLng, from distance: Double, configuration: PolylineTracker.Configuration = .init(), kept: KeptStretch? = nil
    ) -> PolylineProjection {
        let behind = max(0, configuration.behindMeters)
        let ahead = max(0, configuration.aheadMeters)
        if let current = kept?.stretch(of: self, holding: distance - behind, through: distance + ahead) {
            var tracker = PolylineTracker(measure: current, configuration: configuration, startDistance: distance)
            let projection = tracker.update(location)
            if tracker.answersAsWholeLine { return projection }
        }
        var margin = Self.stretchMarginMeters
        let lookahead = kept == nil ? 0 : Self.keptLookaheadMeters
        while distance.isFinite {
            let stretch =
                kept != nil && keptWhole(configuration)
                ? wholeMeasure() : stretch(from: distance - behind - margin, through: distance + ahead + margin + lookahead)
            var tracker = PolylineTracker(measure: stretch, configuration: configuration, startDistance: distance)
            let projection = tracker.update(location)
            if tracker.answersAsWholeLine {
                kept?.keep(stretch)
                return projection
            }
            if !tracker.ranOffStretch { break }
            margin *= 8
        }
        var whole = PolylineTracker(measure: wholeMeasure(), configuration: configuration, startDistance: distance)
        return whole.update(location)
    }
}
