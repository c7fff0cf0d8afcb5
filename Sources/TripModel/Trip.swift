import Geo
import JSON

/// A trip as Fleet Engine models it: where the rider is picked up and dropped off, the
/// vehicle serving it, its status, and the live state derived from the vehicle.
public struct Trip: Hashable, Sendable {
    /// `providers/{provider}/trips/{tripId}`.
    public var name: String
    /// The vehicle assigned to the trip.
    public var vehicleId: String?
    /// Where the trip is in its life (see ``TripStatus/canMove(to:)``).
    public var tripStatus: TripStatus
    /// Whether the trip may share its vehicle.
    public var tripType: TripType?
    /// How many riders travel.
    public var numberOfPassengers: Int?
    /// Where the rider wants to be picked up.
    public var pickupPoint: TerminalLocation?
    /// Where and when the pickup actually happened.
    public var actualPickupPoint: StopLocation?
    /// Estimated (before pickup) or actual pickup time (output only).
    public var pickupTime: Timestamp?
    /// Stops between pickup and dropoff, in order.
    public var intermediateDestinations: [TerminalLocation]
    /// When `intermediateDestinations` last changed.
    public var intermediateDestinationsVersion: Timestamp?
    /// Which intermediate destination the vehicle is headed to or at.
    public var intermediateDestinationIndex: Int?
    /// Where the rider wants to be dropped off.
    public var dropoffPoint: TerminalLocation?
    /// Where and when the dropoff actually happened.
    public var actualDropoffPoint: StopLocation?
    /// Estimated or actual dropoff time (output only).
    public var dropoffTime: Timestamp?
    /// The stops from the vehicle to this trip's dropoff, including other trips' stops on a
    /// shared vehicle, each with its path and estimates (output only).
    public var remainingWaypoints: [TripWaypoint]
    /// When `remainingWaypoints` last changed (output only).
    public var remainingWaypointsVersion: Timestamp?
    /// The anticipated route to the first remaining waypoint (output only).
    public var route: [LatLng]
    /// The vehicle's route to its next waypoint (output only).
    public var currentRouteSegment: String?
    /// When `currentRouteSegment` last changed (output only).
    public var currentRouteSegmentVersion: Timestamp?
    /// Traffic along `currentRouteSegment` (output only).
    public var currentRouteSegmentTraffic: ConsumableTrafficPolyline?
    /// The waypoint `currentRouteSegment` ends at (output only).
    public var currentRouteSegmentEndPoint: TripWaypoint?
    /// Driving distance along `currentRouteSegment`, metres (output only).
    public var remainingDistanceMeters: Int?
    /// Estimated arrival at the first remaining waypoint (output only).
    public var etaToFirstWaypoint: Timestamp?
    /// Driving time to the first remaining waypoint (output only).
    public var remainingTimeToFirstWaypoint: ProtoDuration?
    /// The vehicle's last location (output only).
    public var lastLocation: VehicleLocation?
    /// Which view this value was produced for (output only).
    public var view: TripView?
    /// Free-form attributes.
    public var attributes: [Attribute]

    /// Creates a trip with the given name, status `NEW` and nothing else set.
    public init(name: String) {
        self.name = name
        tripStatus = .new
        intermediateDestinations = []
        remainingWaypoints = []
        route = []
        attributes = []
    }

    /// The trip's ID: the last component of its name.
    public var tripId: String { ResourceName.lastComponent(of: name) }
}

extension Trip: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, vehicleId, tripStatus, tripType, numberOfPassengers, pickupPoint, actualPickupPoint, pickupTime
        case intermediateDestinations, intermediateDestinationsVersion, intermediateDestinationIndex
        case dropoffPoint, actualDropoffPoint, dropoffTime, remainingWaypoints, remainingWaypointsVersion
        case route, currentRouteSegment, currentRouteSegmentVersion, currentRouteSegmentTraffic
        case currentRouteSegmentEndPoint, remainingDistanceMeters, etaToFirstWaypoint
        case remainingTimeToFirstWaypoint, lastLocation, view, attributes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        vehicleId = try c.decodeIfPresent(String.self, forKey: .vehicleId)
        tripStatus = try c.decodeIfPresent(TripStatus.self, forKey: .tripStatus) ?? .unknown
        tripType = try c.decodeIfPresent(TripType.self, forKey: .tripType)
        numberOfPassengers = try c.decodeIfPresent(Int.self, forKey: .numberOfPassengers)
        pickupPoint = try c.decodeIfPresent(TerminalLocation.self, forKey: .pickupPoint)
        actualPickupPoint = try c.decodeIfPresent(StopLocation.self, forKey: .actualPickupPoint)
        pickupTime = try c.decodeIfPresent(Timestamp.self, forKey: .pickupTime)
        intermediateDestinations = try c.decodeArray(TerminalLocation.self, forKey: .intermediateDestinations)
        intermediateDestinationsVersion = try c.decodeIfPresent(Timestamp.self, forKey: .intermediateDestinationsVersion)
        intermediateDestinationIndex = try c.decodeIfPresent(Int.self, forKey: .intermediateDestinationIndex)
        dropoffPoint = try c.decodeIfPresent(TerminalLocation.self, forKey: .dropoffPoint)
        actualDropoffPoint = try c.decodeIfPresent(StopLocation.self, forKey: .actualDropoffPoint)
        dropoffTime = try c.decodeIfPresent(Timestamp.self, forKey: .dropoffTime)
        remainingWaypoints = try c.decodeArray(TripWaypoint.self, forKey: .remainingWaypoints)
        remainingWaypointsVersion = try c.decodeIfPresent(Timestamp.self, forKey: .remainingWaypointsVersion)
        route = try c.decodeArray(LatLng.self, forKey: .route)
        currentRouteSegment = try c.decodeIfPresent(String.self, forKey: .currentRouteSegment)
        currentRouteSegmentVersion = try c.decodeIfPresent(Timestamp.self, forKey: .currentRouteSegmentVersion)
        currentRouteSegmentTraffic = try c.decodeIfPresent(ConsumableTrafficPolyline.self, forKey: .currentRouteSegmentTraffic)
        currentRouteSegmentEndPoint = try c.decodeIfPresent(TripWaypoint.self, forKey: .currentRouteSegmentEndPoint)
        remainingDistanceMeters = try c.decodeIfPresent(Int.self, forKey: .remainingDistanceMeters)
        etaToFirstWaypoint = try c.decodeIfPresent(Timestamp.self, forKey: .etaToFirstWaypoint)
        remainingTimeToFirstWaypoint = try c.decodeIfPresent(ProtoDuration.self, forKey: .remainingTimeToFirstWaypoint)
        lastLocation = try c.decodeIfPresent(VehicleLocation.self, forKey: .lastLocation)
        view = try c.decodeIfPresent(TripView.self, forKey: .view)
        attributes = try c.decodeArray(Attribute.self, forKey: .attributes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(vehicleId, forKey: .vehicleId)
        try c.encode(tripStatus, forKey: .tripStatus)
        try c.encodeIfPresent(tripType, forKey: .tripType)
        try c.encodeIfPresent(numberOfPassengers, forKey: .numberOfPassengers)
        try c.encodeIfPresent(pickupPoint, forKey: .pickupPoint)
        try c.encodeIfPresent(actualPickupPoint, forKey: .actualPickupPoint)
        try c.encodeIfPresent(pickupTime, forKey: .pickupTime)
        try c.encodeNonEmpty(intermediateDestinations, forKey: .intermediateDestinations)
        try c.encodeIfPresent(intermediateDestinationsVersion, forKey: .intermediateDestinationsVersion)
        try c.encodeIfPresent(intermediateDestinationIndex, forKey: .intermediateDestinationIndex)
        try c.encodeIfPresent(dropoffPoint, forKey: .dropoffPoint)
        try c.encodeIfPresent(actualDropoffPoint, forKey: .actualDropoffPoint)
        try c.encodeIfPresent(dropoffTime, forKey: .dropoffTime)
        try c.encodeNonEmpty(remainingWaypoints, forKey: .remainingWaypoints)
        try c.encodeIfPresent(remainingWaypointsVersion, forKey: .remainingWaypointsVersion)
        try c.encodeNonEmpty(route, forKey: .route)
        try c.encodeIfPresent(currentRouteSegment, forKey: .currentRouteSegment)
        try c.encodeIfPresent(currentRouteSegmentVersion, forKey: .currentRouteSegmentVersion)
        try c.encodeIfPresent(currentRouteSegmentTraffic, forKey: .currentRouteSegmentTraffic)
        try c.encodeIfPresent(currentRouteSegmentEndPoint, forKey: .currentRouteSegmentEndPoint)
        try c.encodeIfPresent(remainingDistanceMeters, forKey: .remainingDistanceMeters)
        try c.encodeIfPresent(etaToFirstWaypoint, forKey: .etaToFirstWaypoint)
        try c.encodeIfPresent(remainingTimeToFirstWaypoint, forKey: .remainingTimeToFirstWaypoint)
        try c.encodeIfPresent(lastLocation, forKey: .lastLocation)
        try c.encodeIfPresent(view, forKey: .view)
        try c.encodeNonEmpty(attributes, forKey: .attributes)
    }
}
