/// What the server remembers per vehicle between updates to keep its trip state cheap and
/// consistent: where the vehicle was along its current route segment, and whether the
/// remaining distance and time it holds were sent by the driver for its current location.
public struct RouteTracking: Codable, Hashable, Sendable {
    /// The `currentRouteSegmentVersion` the position refers to.
    public var routeVersion: Timestamp?
    /// Metres from the start of the route segment to the vehicle's snapped position.
    public var distanceAlongMeters: Double
    /// Metres between the reported location and the route.
    public var crossTrackMeters: Double
    /// The vehicle's `remainingDistanceMeters` came from the driver for the current location.
    public var driverDistanceIsCurrent: Bool
    /// The vehicle's `remainingTimeSeconds` came from the driver for the current location.
    public var driverTimeIsCurrent: Bool
    /// Driver-reported seconds over our model's seconds for the same remaining route, from the
    /// latest report on this route segment; scales our estimates towards the driver's.
    public var driverPaceRatio: Double?

    /// Tracking for a vehicle not yet on any route.
    public init() {
        distanceAlongMeters = 0
        crossTrackMeters = 0
        driverDistanceIsCurrent = false
        driverTimeIsCurrent = false
    }
}
