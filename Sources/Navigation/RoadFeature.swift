// Things along the road a driver's screen marks ahead of the vehicle (the Navigation SDK's
// `showsTrafficLights` / `showsStopSigns`), placed at a vertex of the route polyline.

/// A traffic light or stop sign at a point of the route polyline.
public struct RoadFeature: Hashable, Codable, Sendable {
    /// What kind of feature it is.
    public enum Kind: String, CaseIterable, Codable, Sendable {
        /// A traffic signal.
        case trafficLight
        /// A stop sign.
        case stopSign
    }

    /// What it is.
    package var type: Kind
    /// Index of the route polyline point where it stands.
    package var polylinePointIndex: Int

    /// Creates a feature.
    package init(type: Kind, polylinePointIndex: Int) {
        self.type = type
        self.polylinePointIndex = polylinePointIndex
    }
}
