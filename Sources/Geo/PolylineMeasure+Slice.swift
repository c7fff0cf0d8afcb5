// Cutting a PolylineMeasure's line by distance: trimming a route at the vehicle, or taking the
// stretch up to a waypoint.

extension PolylineMeasure {
    /// The part of the line between two distances (each clamped to the line): the exact
    /// interpolated point at `from`, every vertex strictly between, and the exact point at
    /// `to`. Duplicate source vertices inside are kept; a slice without length (`to <= from`)
    /// is the single point at `from`.
    package func slice(from: Double, to: Double) -> [LatLng] {
        sliceWithIndexMap(from: from, to: to).points
    }

    /// The line from the distance `from` (clamped) to its end.
    package func slice(from: Double) -> [LatLng] {
        slice(from: from, to: totalMeters)
    }

    /// ``slice(from:to:)`` together with each output vertex's position on this line, to
    /// re-index vertex-based data (traffic intervals) on the slice.
    package func sliceWithIndexMap(from: Double, to: Double) -> PolylineSlice {
        let start = position(atDistance: from)
        let startPoint = point(onSegment: start.index, fraction: start.fraction)
        let startPosition = Double(start.index) + start.fraction
        let clampedFrom = from.isNaN ? 0 : max(0, min(totalMeters, from))
        guard min(to, totalMeters) > clampedFrom else {
            return PolylineSlice(points: [startPoint], sourceVertexPositions: [startPosition])
        }
        let end = position(atDistance: to)
        let endPosition = Double(end.index) + end.fraction
        // Interior vertices: the whole positions strictly between the two ends.
        let firstInterior = start.index + 1
        let lastInterior = end.fraction > 0 ? end.index : end.index - 1
        var points = [startPoint]
        var positions = [startPosition]
        if firstInterior <= lastInterior {
            points.reserveCapacity(lastInterior - firstInterior + 3)
            positions.reserveCapacity(lastInterior - firstInterior + 3)
            points.append(contentsOf: self.points[firstInterior...lastInterior])
            positions.append(contentsOf: (firstInterior...lastInterior).lazy.map(Double.init))
        }
        points.append(point(onSegment: end.index, fraction: end.fraction))
        positions.append(endPosition)
        return PolylineSlice(points: points, sourceVertexPositions: positions)
    }
}
