import Geo
import JSON

/// What the server remembers per vehicle between updates to keep its trip state cheap and
/// consistent: where the vehicle was along its current route segment, whether the remaining
/// distance and time it holds were sent by the driver for its current location, and what
/// the estimator learnt (the route's profile, the vehicle's pace, its travel in a road cell,
/// its pace near the straight line to a stop no route leads to, its way to its next stop, its
/// drive since it last stood still).
public struct RouteTracking: Codable, Hashable, Sendable {
    /// The `currentRouteSegmentVersion` the position refers to.
    package var routeVersion: Timestamp?
    /// Metres from the start of the route segment to the vehicle's snapped position.
    package var distanceAlongMeters: Double
    /// Metres between the reported location and the route.
    package var crossTrackMeters: Double
    /// Metres along the route segment where the path to the vehicle's first waypoint starts
    /// when that path (with its traffic) is the rest of the segment from there, as
    /// ``JourneyState/refresh(vehicle:trips:tracking:trigger:guidance:roadPaces:roads:roadsNearLine:areaObservations:measuredRoute:)``
    /// cut it; nil otherwise. The stores leave such a path out of the vehicle's row and cut it
    /// again when they read the row (issue 30).
    package var firstLegStartMeters: Double?
    /// The vehicle's `remainingDistanceMeters` came from the driver for the current location.
    package var driverDistanceIsCurrent: Bool
    /// The vehicle's `remainingTimeSeconds` came from the driver for the current location.
    package var driverTimeIsCurrent: Bool
    /// Driver-reported seconds over our model's seconds for the same remaining route, from the
    /// latest report on this route segment; scales our estimates towards the driver's.
    package var driverPaceRatio: Double?
    /// The time of the fix the position refers to (the device's `updateTime`).
    package var fixTime: Timestamp?
    /// Where that fix was, as reported (for the vehicle's own pace where no route is known).
    package var fixLocation: LatLng?
    /// Turns of the route segment and the fleet's pace along it.
    package var profile: RouteProfile?
    /// The vehicle's own pace on its current trip.
    package var tripPace: TripPace?
    /// The vehicle's driving in the road cell it is in, recorded for the fleet once it leaves.
    package var cellTravel: RoadCellPace?
    /// The fleet's pace near the straight line to the next stop, while no route leads there.
    package var linePace: LinePace?
    /// The vehicle's way to its next stop, for what the fleet learns from it.
    package var leg: LegTravel?
    /// The vehicle's drive since it last stood still, for what the fleet learns from it.
    public var drive: DriveTravel?

    /// Tracking for a vehicle not yet on any route.
    public init() {
        distanceAlongMeters = 0
        crossTrackMeters = 0
        driverDistanceIsCurrent = false
        driverTimeIsCurrent = false
    }
}

extension RouteTracking {
    /// The synthesised encoding, member for member, with nil members left out by
    /// `encodeIfSet`: every location update writes this state (about 1 KB, 40 members), and
    /// the synthesised `encodeIfPresent` looked up `Optional` metadata for each optional one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfSet(routeVersion, forKey: .routeVersion)
        try c.encode(distanceAlongMeters, forKey: .distanceAlongMeters)
        try c.encode(crossTrackMeters, forKey: .crossTrackMeters)
        try c.encodeIfSet(firstLegStartMeters, forKey: .firstLegStartMeters)
        try c.encode(driverDistanceIsCurrent, forKey: .driverDistanceIsCurrent)
        try c.encode(driverTimeIsCurrent, forKey: .driverTimeIsCurrent)
        try c.encodeIfSet(driverPaceRatio, forKey: .driverPaceRatio)
        try c.encodeIfSet(fixTime, forKey: .fixTime)
        try c.encodeIfSet(fixLocation, forKey: .fixLocation)
        try c.encodeIfSet(profile, forKey: .profile)
        try c.encodeIfSet(tripPace, forKey: .tripPace)
        try c.encodeIfSet(cellTravel, forKey: .cellTravel)
        try c.encodeIfSet(linePace, forKey: .linePace)
        try c.encodeIfSet(leg, forKey: .leg)
        try c.encodeIfSet(drive, forKey: .drive)
    }
}
