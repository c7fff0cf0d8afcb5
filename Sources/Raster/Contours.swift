// Closed polygons in device space, stored flat (all points in one array, contour ends in
// another) so that fills and strokes hand the edge builder one allocation-free structure.

/// A set of closed polygons in device pixels; each contour implicitly closes.
struct Contours {
    /// Every contour's points, one contour after the other.
    var points: [Point] = []
    /// The end index (exclusive) in `points` of each contour.
    var ends: [Int] = []

    mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    /// Closes the contour begun after the previous end (dropped if it has under 3 points).
    mutating func closeContour() {
        let start = ends.last ?? 0
        if points.count - start >= 3 {
            ends.append(points.count)
        } else {
            points.removeSubrange(start...)
        }
    }

    mutating func append(_ polyline: Polyline) {
        points.append(contentsOf: polyline.points)
        closeContour()
    }

    /// Maps every point through a transform.
    mutating func apply(_ transform: Transform) {
        guard !transform.isIdentity else { return }
        for index in points.indices { points[index] = transform.apply(points[index]) }
    }
}
