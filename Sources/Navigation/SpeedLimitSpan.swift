// A posted speed limit over a run of the route polyline.

/// The speed limit from one route polyline point to a later one.
public struct SpeedLimitSpan: Hashable, Codable, Sendable {
    /// Index of the polyline point where the limit starts.
    public var startPolylinePointIndex: Int
    /// Index of the polyline point where the limit ends (exclusive for segments).
    public var endPolylinePointIndex: Int
    /// The limit in km/h.
    public var speedLimitKph: Double

    /// Creates a span.
    public init(startPolylinePointIndex: Int, endPolylinePointIndex: Int, speedLimitKph: Double) {
        self.startPolylinePointIndex = startPolylinePointIndex
        self.endPolylinePointIndex = endPolylinePointIndex
        self.speedLimitKph = speedLimitKph
    }
}
