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
    package var tripStatus: TripStatus
    /// Whether the trip may share its vehicle.
    public var tripType: TripType?
    /// How many riders travel.
    package var numberOfPassengers: Int?
    /// Where the rider wants to be picked up.
    public var pickupPoint: TerminalLocation?
    /// Where and when the pickup actually happened.
    package var actualPickupPoint: StopLocation?
    /// Where and when the vehicle arrived at the pickup: the provider's, or the vehicle's
    /// position when the trip became `ARRIVED_AT_PICKUP`.
    package var actualPickupArrivalPoint: StopLocation?
    /// Estimated (before pickup) or actual pickup time (output only).
    package var pickupTime: Timestamp?
    /// Stops between pickup and dropoff, in order.
    public var intermediateDestinations: [TerminalLocation]
    /// When `intermediateDestinations` last changed.
    package var intermediateDestinationsVersion: Timestamp?
    /// Which intermediate destination the vehicle is headed to or at.
    package var intermediateDestinationIndex: Int?
    /// Where and when the vehicle arrived at each intermediate destination it reached, in
    /// order: the provider's, or the vehicle's position at each
    /// `ARRIVED_AT_INTERMEDIATE_DESTINATION`.
    package var actualIntermediateDestinationArrivalPoints: [StopLocation]
    /// Where and when the vehicle left each intermediate destination it reached (the rider
    /// was picked up there), in order: the provider's, or the vehicle's position when the
    /// trip moved on from `ARRIVED_AT_INTERMEDIATE_DESTINATION`.
    package var actualIntermediateDestinations: [StopLocation]
    /// Where the rider wants to be dropped off.
    public var dropoffPoint: TerminalLocation?
    /// Where and when the dropoff actually happened.
    package var actualDropoffPoint: StopLocation?
    /// Estimated or actual dropoff time (output only).
    package var dropoffTime: Timestamp?
    /// The stops from the vehicle to this trip's dropoff, including other trips' stops on a
    /// shared vehicle, each with its path and estimates (output only).
    public var remainingWaypoints: [TripWaypoint]
    /// When `remainingWaypoints` last changed (output only).
    package var remainingWaypointsVersion: Timestamp?
    /// When the paths and traffic of `remainingWaypoints` last changed other than by the
    /// vehicle moving along them: a new route, new traffic, other stops (output only).
    package var remainingWaypointsRouteVersion: Timestamp?
    /// The order of every remaining stop of the vehicle's trips, this trip's included, as the
    /// provider sets it on a SHARED vehicle (input on create and update; answered by them,
    /// never stored or returned by a read).
    package var vehicleWaypoints: [TripWaypoint]
    /// The anticipated route to the first remaining waypoint (output only).
    public var route: [LatLng]
    /// The vehicle's route to its next waypoint (output only).
    public var currentRouteSegment: String?
    /// When `currentRouteSegment` last changed (output only).
    package var currentRouteSegmentVersion: Timestamp?
    /// Traffic along `currentRouteSegment` (output only).
    package var currentRouteSegmentTraffic: ConsumableTrafficPolyline?
    /// When the traffic the vehicle reported for its route last changed, or its route did
    /// (output only).
    package var currentRouteSegmentTrafficVersion: Timestamp?
    /// The waypoint `currentRouteSegment` ends at (output only).
    package var currentRouteSegmentEndPoint: TripWaypoint?
    /// Driving distance along `currentRouteSegment`, metres (output only).
    package var remainingDistanceMeters: Int?
    /// Estimated arrival at the first remaining waypoint (output only).
    package var etaToFirstWaypoint: Timestamp?
    /// Driving time to the first remaining waypoint (output only).
    package var remainingTimeToFirstWaypoint: ProtoDuration?
    /// The vehicle's last location (output only).
    public var lastLocation: VehicleLocation?
    /// Whether `lastLocation` lies on `currentRouteSegment` (output only; false without
    /// either).
    package var lastLocationSnappable: Bool?
    /// Which view this value was produced for (output only).
    public var view: TripView?
    /// Free-form attributes.
    public var attributes: [Attribute]

    /// Creates a trip with the given name, status `NEW` and nothing else set.
    public init(name: String) {
        self.name = name
        tripStatus = .new
        intermediateDestinations = []
        actualIntermediateDestinationArrivalPoints = []
        actualIntermediateDestinations = []
        remainingWaypoints = []
        vehicleWaypoints = []
        route = []
        attributes = []
    }

    /// The trip's ID: the last component of its name.
    package var tripId: String { ResourceName.lastComponent(of: name) }
}

extension Trip: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, vehicleId, tripStatus, tripType, numberOfPassengers, pickupPoint, actualPickupPoint
        case actualPickupArrivalPoint, pickupTime
        case intermediateDestinations, intermediateDestinationsVersion, intermediateDestinationIndex
        case actualIntermediateDestinationArrivalPoints, actualIntermediateDestinations
        case dropoffPoint, actualDropoffPoint, dropoffTime, remainingWaypoints, remainingWaypointsVersion
        case remainingWaypointsRouteVersion
        case route, currentRouteSegment, currentRouteSegmentVersion, currentRouteSegmentTraffic
        case currentRouteSegmentTrafficVersion
        case currentRouteSegmentEndPoint, remainingDistanceMeters, etaToFirstWaypoint
        case remainingTimeToFirstWaypoint, lastLocation, lastLocationSnappable, view, attributes
        case vehicleWaypoints
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, vehicleProgress: true)
    }

    /// Decodes a trip; without `vehicleProgress`, the live fields ``withProgress(of:)`` always
    /// takes from the vehicle are left unset rather than read (``WithoutVehicleProgress``).
    init(from decoder: any Decoder, vehicleProgress: Bool) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfSet(String.self, forKey: .name) ?? ""
        vehicleId = try c.decodeIfSet(String.self, forKey: .vehicleId)
        tripStatus = try c.decodeIfSet(TripStatus.self, forKey: .tripStatus) ?? .unknown
        tripType = try c.decodeIfSet(TripType.self, forKey: .tripType)
        numberOfPassengers = try c.decodeScalar(Int32.self, forKey: .numberOfPassengers).map(Int.init)
        pickupPoint = try c.decodeIfSet(TerminalLocation.self, forKey: .pickupPoint)
        actualPickupPoint = try c.decodeIfSet(StopLocation.self, forKey: .actualPickupPoint)
        actualPickupArrivalPoint = try c.decodeIfSet(StopLocation.self, forKey: .actualPickupArrivalPoint)
        pickupTime = try c.decodeIfSet(Timestamp.self, forKey: .pickupTime)
        intermediateDestinations = try c.decodeArray(TerminalLocation.self, forKey: .intermediateDestinations)
        intermediateDestinationsVersion = try c.decodeIfSet(Timestamp.self, forKey: .intermediateDestinationsVersion)
        intermediateDestinationIndex = try c.decodeIfSet(Int32.self, forKey: .intermediateDestinationIndex).map(Int.init)
        actualIntermediateDestinationArrivalPoints = try c.decodeArray(StopLocation.self, forKey: .actualIntermediateDestinationArrivalPoints)
        actualIntermediateDestinations = try c.decodeArray(StopLocation.self, forKey: .actualIntermediateDestinations)
        dropoffPoint = try c.decodeIfSet(TerminalLocation.self, forKey: .dropoffPoint)
        actualDropoffPoint = try c.decodeIfSet(StopLocation.self, forKey: .actualDropoffPoint)
        dropoffTime = try c.decodeIfSet(Timestamp.self, forKey: .dropoffTime)
        remainingWaypoints = vehicleProgress ? try c.decodeArray(TripWaypoint.self, forKey: .remainingWaypoints) : []
        remainingWaypointsVersion = try c.decodeIfSet(Timestamp.self, forKey: .remainingWaypointsVersion)
        remainingWaypointsRouteVersion = try c.decodeIfSet(Timestamp.self, forKey: .remainingWaypointsRouteVersion)
        route = try c.decodeArray(LatLng.self, forKey: .route)
        currentRouteSegment = vehicleProgress ? try c.decodeIfSet(String.self, forKey: .currentRouteSegment) : nil
        currentRouteSegmentVersion = vehicleProgress ? try c.decodeIfSet(Timestamp.self, forKey: .currentRouteSegmentVersion) : nil
        currentRouteSegmentTraffic = vehicleProgress ? try c.decodeIfSet(ConsumableTrafficPolyline.self, forKey: .currentRouteSegmentTraffic) : nil
        currentRouteSegmentTrafficVersion = try c.decodeIfSet(Timestamp.self, forKey: .currentRouteSegmentTrafficVersion)
        currentRouteSegmentEndPoint = vehicleProgress ? try c.decodeIfSet(TripWaypoint.self, forKey: .currentRouteSegmentEndPoint) : nil
        remainingDistanceMeters = vehicleProgress ? try c.decodeIfSet(Int.self, forKey: .remainingDistanceMeters) : nil
        etaToFirstWaypoint = vehicleProgress ? try c.decodeIfSet(Timestamp.self, forKey: .etaToFirstWaypoint) : nil
        remainingTimeToFirstWaypoint = vehicleProgress ? try c.decodeIfSet(ProtoDuration.self, forKey: .remainingTimeToFirstWaypoint) : nil
        lastLocation = vehicleProgress ? try c.decodeIfSet(VehicleLocation.self, forKey: .lastLocation) : nil
        lastLocationSnappable = try c.decodeIfSet(Bool.self, forKey: .lastLocationSnappable)
        view = try c.decodeIfSet(TripView.self, forKey: .view)
        attributes = try c.decodeArray(TripAttributeInput.self, forKey: .attributes).map(\.attribute)
        vehicleWaypoints = try c.decodeArray(TripWaypoint.self, forKey: .vehicleWaypoints)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfSet(vehicleId, forKey: .vehicleId)
        try c.encode(tripStatus, forKey: .tripStatus)
        try c.encodeIfSet(tripType, forKey: .tripType)
        try c.encodeIfSet(numberOfPassengers, forKey: .numberOfPassengers)
        try c.encodeIfSet(pickupPoint, forKey: .pickupPoint)
        try c.encodeIfSet(actualPickupPoint, forKey: .actualPickupPoint)
        try c.encodeIfSet(actualPickupArrivalPoint, forKey: .actualPickupArrivalPoint)
        try c.encodeIfSet(pickupTime, forKey: .pickupTime)
        try c.encodeNonEmpty(intermediateDestinations, forKey: .intermediateDestinations)
        try c.encodeIfSet(intermediateDestinationsVersion, forKey: .intermediateDestinationsVersion)
        try c.encodeIfSet(intermediateDestinationIndex, forKey: .intermediateDestinationIndex)
        try c.encodeNonEmpty(actualIntermediateDestinationArrivalPoints, forKey: .actualIntermediateDestinationArrivalPoints)
        try c.encodeNonEmpty(actualIntermediateDestinations, forKey: .actualIntermediateDestinations)
        try c.encodeIfSet(dropoffPoint, forKey: .dropoffPoint)
        try c.encodeIfSet(actualDropoffPoint, forKey: .actualDropoffPoint)
        try c.encodeIfSet(dropoffTime, forKey: .dropoffTime)
        try c.encodeNonEmpty(remainingWaypoints, forKey: .remainingWaypoints)
        try c.encodeIfSet(remainingWaypointsVersion, forKey: .remainingWaypointsVersion)
        try c.encodeIfSet(remainingWaypointsRouteVersion, forKey: .remainingWaypointsRouteVersion)
        try c.encodeNonEmpty(route, forKey: .route)
        try c.encodeIfSet(currentRouteSegment, forKey: .currentRouteSegment)
        try c.encodeIfSet(currentRouteSegmentVersion, forKey: .currentRouteSegmentVersion)
        try c.encodeIfSet(currentRouteSegmentTraffic, forKey: .currentRouteSegmentTraffic)
        try c.encodeIfSet(currentRouteSegmentTrafficVersion, forKey: .currentRouteSegmentTrafficVersion)
        try c.encodeIfSet(currentRouteSegmentEndPoint, forKey: .currentRouteSegmentEndPoint)
        try c.encodeIfSet(remainingDistanceMeters, forKey: .remainingDistanceMeters)
        try c.encodeIfSet(etaToFirstWaypoint, forKey: .etaToFirstWaypoint)
        try c.encodeIfSet(remainingTimeToFirstWaypoint, forKey: .remainingTimeToFirstWaypoint)
        try c.encodeIfSet(lastLocation, forKey: .lastLocation)
        try c.encodeIfSet(lastLocationSnappable, forKey: .lastLocationSnappable)
        try c.encodeIfSet(view, forKey: .view)
        try c.encodeNonEmpty(attributes, forKey: .attributes)
        try c.encodeNonEmpty(vehicleWaypoints, forKey: .vehicleWaypoints)
    }
}

extension Trip {
    /// A trip decoded without the live fields ``withProgress(of:)`` always takes from its
    /// vehicle (remaining waypoints, position, route segment, first leg's estimates): for a
    /// trip read only to be composed with its vehicle, where decoding them was half of decoding
    /// the row (issue 30). Not a trip to keep: those fields are unset.
    package struct WithoutVehicleProgress: Decodable {
        package var trip: Trip

        package init(from decoder: any Decoder) throws { trip = try Trip(from: decoder, vehicleProgress: false) }
    }
}
