// A piece of a polyline that remembers where each of its vertices came from, so that data
// indexed by the source's vertices (Fleet Engine's traffic intervals,
// `startPolylinePointIndex` ... `endPolylinePointIndex`) can be carried over to the piece.

/// A slice of a polyline with, for each of its vertices, its position on the source line.
package struct PolylineSlice: Sendable, Hashable {
    /// The vertices of the slice: an interpolated start, the source's interior vertices, an
    /// interpolated end (a single point when the slice has no length).
    package var points: [LatLng]
    /// For each vertex, its position on the source as a fractional vertex index (see
    /// ``PolylineMeasure/vertexIndex(atDistance:)``); interior vertices have whole numbers.
    package var sourceVertexPositions: [Double]

    /// Creates a slice from its parts (the two arrays have the same length).
    package init(points: [LatLng], sourceVertexPositions: [Double]) {
        self.points = points
        self.sourceVertexPositions = sourceVertexPositions
    }

    /// For each vertex, the index of the source segment that contains it or starts at it
    /// (the last source segment for the source's last vertex).
    package func sourceSegmentIndices(sourceSegmentCount: Int) -> [Int] {
        sourceVertexPositions.map { max(0, min(Int($0), sourceSegmentCount - 1)) }
    }

    /// The vertices of this slice covering the source's vertex interval `start...end`
    /// (a traffic interval), clamped to the slice; nil when the interval and the slice do not
    /// overlap over a positive length.
    package func vertexRange(forSourceVertices start: Int, through end: Int) -> ClosedRange<Int>? {
        guard let first = sourceVertexPositions.first, let last = sourceVertexPositions.last,
            start < end, Double(end) > first, Double(start) < last
        else { return nil }
        return firstVertex(atOrAfter: Double(start))...firstVertex(atOrAfter: min(Double(end), last))
    }

    /// The first vertex at or after a source position (0 when the position is before the slice).
    private func firstVertex(atOrAfter position: Double) -> Int {
        var low = 0
        var high = sourceVertexPositions.count - 1
        while low < high {
            let mid = (low + high) / 2
            if sourceVertexPositions[mid] >= position { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
