import JSON

/// A vehicle as Fleet Engine models it: its state, capabilities, last location, the route
/// its driver follows and the waypoints of the trips assigned to it.
public struct Vehicle: Hashable, Sendable {
    /// `providers/{provider}/vehicles/{vehicleId}`.
    public var name: String
    /// Whether the vehicle takes new trips.
    public var vehicleState: VehicleState?
    /// The trip types it takes.
    public var supportedTripTypes: [TripType]
    /// IDs of the trips assigned to it that are not finished (output only).
    public var currentTrips: [String]
    /// Its last reported location.
    public var lastLocation: VehicleLocation?
    /// How many passengers it can carry.
    public var maximumCapacity: Int?
    /// Free-form attributes, searchable.
    public var attributes: [Attribute]
    /// What kind of vehicle it is.
    public var vehicleType: VehicleType?
    /// Whether it may take a trip while finishing another.
    public var backToBackEnabled: Bool?
    /// The stops of its current trips in driving order, the first with the path from the
    /// vehicle (maintained by the server).
    public var waypoints: [TripWaypoint]
    /// When `waypoints` last changed.
    public var waypointsVersion: Timestamp?
    /// The route from the vehicle to its next waypoint (Google encoded polyline, precision 5;
    /// S2-encoded input is converted).
    public var currentRouteSegment: String?
    /// When `currentRouteSegment` last changed.
    public var currentRouteSegmentVersion: Timestamp?
    /// Traffic along `currentRouteSegment`.
    public var currentRouteSegmentTraffic: TrafficPolylineData?
    /// The waypoint `currentRouteSegment` ends at.
    public var currentRouteSegmentEndPoint: TripWaypoint?
    /// Driving distance to the next waypoint, metres.
    public var remainingDistanceMeters: Int?
    /// Driving time to the next waypoint, seconds.
    public var remainingTimeSeconds: Int?
    /// Estimated arrival at the next waypoint.
    public var etaToFirstWaypoint: Timestamp?
    /// The driver app's navigation state.
    public var navigationStatus: NavigationStatus?

    /// Creates a vehicle with the given name and nothing else set.
    public init(name: String) {
        self.name = name
        supportedTripTypes = []
        currentTrips = []
        attributes = []
        waypoints = []
    }
}

/// The kind of a vehicle.
public struct VehicleType: Codable, Hashable, Sendable {
    /// The category; it picks the fallback speed for estimates.
    public var category: VehicleCategory

    /// Creates a vehicle type.
    public init(category: VehicleCategory) { self.category = category }
}

extension Vehicle: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, vehicleState, supportedTripTypes, currentTrips, lastLocation, maximumCapacity, attributes
        case vehicleType, backToBackEnabled, waypoints, waypointsVersion, currentRouteSegment
        case currentRouteSegmentVersion, currentRouteSegmentTraffic, currentRouteSegmentEndPoint
        case remainingDistanceMeters, remainingTimeSeconds, etaToFirstWaypoint, navigationStatus
        /// Input only in Fleet Engine; accepted and not kept.
        case deviceSettings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        vehicleState = try c.decodeIfPresent(VehicleState.self, forKey: .vehicleState)
        supportedTripTypes = try c.decodeArray(TripType.self, forKey: .supportedTripTypes)
        currentTrips = try c.decodeArray(String.self, forKey: .currentTrips)
        lastLocation = try c.decodeIfPresent(VehicleLocation.self, forKey: .lastLocation)
        maximumCapacity = try c.decodeIfPresent(Int.self, forKey: .maximumCapacity)
        attributes = try c.decodeArray(Attribute.self, forKey: .attributes)
        vehicleType = try c.decodeIfPresent(VehicleType.self, forKey: .vehicleType)
        backToBackEnabled = try c.decodeIfPresent(Bool.self, forKey: .backToBackEnabled)
        waypoints = try c.decodeArray(TripWaypoint.self, forKey: .waypoints)
        waypointsVersion = try c.decodeIfPresent(Timestamp.self, forKey: .waypointsVersion)
        currentRouteSegment = try c.decodeIfPresent(String.self, forKey: .currentRouteSegment)
        currentRouteSegmentVersion = try c.decodeIfPresent(Timestamp.self, forKey: .currentRouteSegmentVersion)
        currentRouteSegmentTraffic = try c.decodeIfPresent(TrafficPolylineData.self, forKey: .currentRouteSegmentTraffic)
        currentRouteSegmentEndPoint = try c.decodeIfPresent(TripWaypoint.self, forKey: .currentRouteSegmentEndPoint)
        remainingDistanceMeters = try c.decodeIfPresent(Int.self, forKey: .remainingDistanceMeters)
        remainingTimeSeconds = try c.decodeIfPresent(Int.self, forKey: .remainingTimeSeconds)
        etaToFirstWaypoint = try c.decodeIfPresent(Timestamp.self, forKey: .etaToFirstWaypoint)
        navigationStatus = try c.decodeIfPresent(NavigationStatus.self, forKey: .navigationStatus)
        if let settings = try c.decodeIfPresent(JSONValue.self, forKey: .deviceSettings) {
            guard case .object = settings else {
                throw FieldValidationError(codingPath: c.codingPath + [CodingKeys.deviceSettings], message: "expected an object")
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(vehicleState, forKey: .vehicleState)
        try c.encodeNonEmpty(supportedTripTypes, forKey: .supportedTripTypes)
        try c.encodeNonEmpty(currentTrips, forKey: .currentTrips)
        try c.encodeIfPresent(lastLocation, forKey: .lastLocation)
        try c.encodeIfPresent(maximumCapacity, forKey: .maximumCapacity)
        try c.encodeNonEmpty(attributes, forKey: .attributes)
        try c.encodeIfPresent(vehicleType, forKey: .vehicleType)
        try c.encodeIfPresent(backToBackEnabled, forKey: .backToBackEnabled)
        try c.encodeNonEmpty(waypoints, forKey: .waypoints)
        try c.encodeIfPresent(waypointsVersion, forKey: .waypointsVersion)
        try c.encodeIfPresent(currentRouteSegment, forKey: .currentRouteSegment)
        try c.encodeIfPresent(currentRouteSegmentVersion, forKey: .currentRouteSegmentVersion)
        try c.encodeIfPresent(currentRouteSegmentTraffic, forKey: .currentRouteSegmentTraffic)
        try c.encodeIfPresent(currentRouteSegmentEndPoint, forKey: .currentRouteSegmentEndPoint)
        try c.encodeIfPresent(remainingDistanceMeters, forKey: .remainingDistanceMeters)
        try c.encodeIfPresent(remainingTimeSeconds, forKey: .remainingTimeSeconds)
        try c.encodeIfPresent(etaToFirstWaypoint, forKey: .etaToFirstWaypoint)
        try c.encodeIfPresent(navigationStatus, forKey: .navigationStatus)
    }
}
