// The answer to "where on the route is this location?".

/// The nearest point of a polyline to a location, and where it lies along the line.
public struct PolylineProjection: Sendable, Hashable {
    /// The segment holding the nearest point: 0 ..< segment count (0 for a one-point line).
    /// Where two segments are equally near, the earlier one.
    package var segmentIndex: Int
    /// How far along that segment the nearest point lies, 0...1.
    package var fraction: Double
    /// Distance in metres from the line's start to the nearest point.
    package var distanceAlongMeters: Double
    /// Great-circle distance in metres from the location to the nearest point, >= 0.
    package var crossTrackMeters: Double
    /// The nearest point itself.
    public var point: LatLng

    /// Creates a projection from its parts.
    package init(segmentIndex: Int, fraction: Double, distanceAlongMeters: Double, crossTrackMeters: Double, point: LatLng) {
        self.segmentIndex = segmentIndex
        self.fraction = fraction
        self.distanceAlongMeters = distanceAlongMeters
        self.crossTrackMeters = crossTrackMeters
        self.point = point
    }

    /// The nearest point as a fractional vertex index (`segmentIndex + fraction`), the unit of
    /// Fleet Engine's traffic intervals.
    package var vertexIndex: Double { Double(segmentIndex) + fraction }
}
