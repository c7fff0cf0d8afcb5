import Geo

/// The constants behind our distance and time estimates, where no driver-sent value and no
/// planned route with durations exist. They are deliberately simple and visible.
public enum Estimation {
    /// Road distance over straight-line distance, for legs the driver has not sent a route
    /// for yet. Urban road networks measure 1.2–1.4; 1.3 is the middle.
    public static let detourFactor = 1.3

    /// Typical door-to-door speed in metres per second for a vehicle category, free flow.
    public static func freeFlowSpeed(_ category: VehicleCategory?) -> Double {
        switch category {
        case .auto, .taxi, .none: return 11.1  // 40 km/h: urban arterial average
        case .truck: return 9.7  // 35 km/h
        case .twoWheeler: return 11.1  // 40 km/h
        case .bicycle: return 4.2  // 15 km/h
        case .pedestrian: return 1.4  // 5 km/h
        }
    }

    /// How much longer a stretch takes than at the typical speed, by its traffic speed. The
    /// typical speed already includes everyday congestion, so the factors are mild; on the
    /// two-trips Fleet Engine log steeper ones (1.6/3.0) doubled the error against the
    /// driver app's own estimates.
    public static func trafficTimeFactor(_ speed: TrafficSpeed) -> Double {
        switch speed {
        case .normal, .unspecified: return 1.0
        case .slow: return 1.2
        case .trafficJam: return 1.6
        }
    }

    /// Distance within which a route segment's end counts as reaching a waypoint: pickup
    /// points are often off the road the route ends on.
    public static let waypointMatchMeters = 150.0
}
