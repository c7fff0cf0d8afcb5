import Geo
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
    package var currentTrips: [String]
    /// Its last reported location.
    public var lastLocation: VehicleLocation?
    /// Locations it could not report when it passed them (offline), oldest first: input
    /// only, recorded in its location history by the update that brings them, never stored
    /// on the vehicle.
    package var pastLocations: [VehicleLocation]
    /// How many passengers it can carry.
    public var maximumCapacity: Int?
    /// Free-form attributes, searchable.
    public var attributes: [Attribute]
    /// What kind of vehicle it is.
    public var vehicleType: VehicleType?
    /// Its licence plate's country and last character.
    package var licensePlate: LicensePlate?
    /// Whether it may take a trip while finishing another.
    package var backToBackEnabled: Bool?
    /// The stops of its current trips in driving order, the first with the path from the
    /// vehicle (maintained by the server).
    package var waypoints: [TripWaypoint]
    /// When `waypoints` last changed.
    package var waypointsVersion: Timestamp?
    /// The route from the vehicle to its next waypoint (Google encoded polyline, precision 5;
    /// S2-encoded input is converted).
    public var currentRouteSegment: String?
    /// When `currentRouteSegment` last changed.
    package var currentRouteSegmentVersion: Timestamp?
    /// Traffic along `currentRouteSegment`.
    package var currentRouteSegmentTraffic: TrafficPolylineData?
    /// The waypoint `currentRouteSegment` ends at.
    package var currentRouteSegmentEndPoint: TripWaypoint?
    /// Driving distance to the next waypoint, metres.
    package var remainingDistanceMeters: Int?
    /// Driving time to the next waypoint, seconds.
    package var remainingTimeSeconds: Int?
    /// Estimated arrival at the next waypoint.
    package var etaToFirstWaypoint: Timestamp?
    /// The driver app's navigation state.
    package var navigationStatus: NavigationStatus?
    /// Which way `remainingDistanceMeters` and `remainingTimeSeconds` were made (output only;
    /// our extension of Fleet Engine's resource).
    package var estimateMethod: EstimateMethod?
    /// What our own estimate rested on: the map's coverage, the detour, standing time (output
    /// only; our extension of Fleet Engine's resource).
    package var estimateBasis: EstimateBasis?
    /// The driver's phone: battery, power saving (input only in Fleet Engine; kept here).
    package var deviceSettings: DeviceSettings?

    /// Creates a vehicle with the given name and nothing else set.
    public init(name: String) {
        self.name = name
        supportedTripTypes = []
        currentTrips = []
        pastLocations = []
        attributes = []
        waypoints = []
    }
}

/// The kind of a vehicle.
public struct VehicleType: Codable, Hashable, Sendable {
    /// The category; it picks the fallback speed for estimates. Required where the type is
    /// given; `UNKNOWN` (unset) is refused.
    public var category: VehicleCategory

    /// Creates a vehicle type.
    public init(category: VehicleCategory) { self.category = category }
}

/// A stop of the deprecated `Vehicle.route`: a terminal location with its deprecated trip
/// ID and type, which make it a waypoint.
private struct DeprecatedRouteStop: Decodable {
    var waypoint: TripWaypoint

    enum CodingKeys: String, CodingKey { case point, tripId, terminalLocationType, terminalPointId, accessPointId }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decodeIfSet(DeprecatedTerminalPointId.self, forKey: .terminalPointId)
        _ = try c.decodeIfSet(String.self, forKey: .accessPointId)
        waypoint = TripWaypoint(
            location: TerminalLocation(point: try c.decode(LatLng.self, forKey: .point)),
            tripId: try c.decodeIfSet(String.self, forKey: .tripId),
            waypointType: try c.decodeIfSet(WaypointType.self, forKey: .terminalLocationType))
    }
}

extension Vehicle: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, vehicleState, supportedTripTypes, currentTrips, lastLocation, pastLocations, maximumCapacity, attributes
        case vehicleType, licensePlate, backToBackEnabled, waypoints, waypointsVersion, currentRouteSegment
        case currentRouteSegmentVersion, currentRouteSegmentTraffic, currentRouteSegmentEndPoint
        case remainingDistanceMeters, remainingTimeSeconds, etaToFirstWaypoint, navigationStatus, deviceSettings
        case estimateMethod, estimateBasis
        /// Deprecated: the stops as terminal locations, read as `waypoints`.
        case route
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfSet(String.self, forKey: .name) ?? ""
        vehicleState = try c.decodeIfSet(VehicleState.self, forKey: .vehicleState)
        supportedTripTypes = try c.decodeArray(TripType.self, forKey: .supportedTripTypes)
        currentTrips = try c.decodeArray(String.self, forKey: .currentTrips)
        lastLocation = try c.decodeIfSet(VehicleLocation.self, forKey: .lastLocation)
        pastLocations = try c.decodeArray(VehicleLocation.self, forKey: .pastLocations)
        maximumCapacity = try c.decodeScalar(Int32.self, forKey: .maximumCapacity).map(Int.init)
        attributes = try c.decodeArray(Attribute.self, forKey: .attributes)
        vehicleType = try c.decodeIfSet(VehicleType.self, forKey: .vehicleType)
        licensePlate = try c.decodeIfSet(LicensePlate.self, forKey: .licensePlate)
        backToBackEnabled = try c.decodeIfSet(Bool.self, forKey: .backToBackEnabled)
        waypoints = try c.decodeArray(TripWaypoint.self, forKey: .waypoints)
        let route = try c.decodeArray(DeprecatedRouteStop.self, forKey: .route).map(\.waypoint)
        if !route.isEmpty {
            if !waypoints.isEmpty, waypoints.map(\.stop) != route {
                throw DeprecatedTwin.disagreement(c, .waypoints, "\(waypoints.count) stops", deprecated: .route, "\(route.count) other stops")
            }
            if waypoints.isEmpty { waypoints = route }
        }
        waypointsVersion = try c.decodeIfSet(Timestamp.self, forKey: .waypointsVersion)
        currentRouteSegment = try c.decodeIfSet(String.self, forKey: .currentRouteSegment)
        currentRouteSegmentVersion = try c.decodeIfSet(Timestamp.self, forKey: .currentRouteSegmentVersion)
        currentRouteSegmentTraffic = try c.decodeIfSet(TrafficPolylineData.self, forKey: .currentRouteSegmentTraffic)
        currentRouteSegmentEndPoint = try c.decodeIfSet(TripWaypoint.self, forKey: .currentRouteSegmentEndPoint)
        remainingDistanceMeters = try c.decodeIfSet(Int.self, forKey: .remainingDistanceMeters)
        remainingTimeSeconds = try c.decodeIfSet(Int.self, forKey: .remainingTimeSeconds)
        etaToFirstWaypoint = try c.decodeIfSet(Timestamp.self, forKey: .etaToFirstWaypoint)
        navigationStatus = try c.decodeIfSet(NavigationStatus.self, forKey: .navigationStatus)
        deviceSettings = try c.decodeIfSet(DeviceSettings.self, forKey: .deviceSettings)
        estimateMethod = try c.decodeIfSet(EstimateMethod.self, forKey: .estimateMethod)
        estimateBasis = try c.decodeIfSet(EstimateBasis.self, forKey: .estimateBasis)
    }

    /// The members written after `currentRouteSegment` (the coding keys are declared in the
    /// order ``encode(to:)`` writes them): where a store that keeps the route apart puts it back.
    package static let membersEncodedAfterRouteSegment = Set(
        CodingKeys.allCases.drop { $0 != .currentRouteSegment }.dropFirst().map(\.stringValue))

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfSet(vehicleState, forKey: .vehicleState)
        try c.encodeNonEmpty(supportedTripTypes, forKey: .supportedTripTypes)
        try c.encodeNonEmpty(currentTrips, forKey: .currentTrips)
        try c.encodeIfSet(lastLocation, forKey: .lastLocation)
        try c.encodeIfSet(maximumCapacity, forKey: .maximumCapacity)
        try c.encodeNonEmpty(attributes, forKey: .attributes)
        try c.encodeIfSet(vehicleType, forKey: .vehicleType)
        try c.encodeIfSet(licensePlate, forKey: .licensePlate)
        try c.encodeIfSet(backToBackEnabled, forKey: .backToBackEnabled)
        try c.encodeNonEmpty(waypoints, forKey: .waypoints)
        try c.encodeIfSet(waypointsVersion, forKey: .waypointsVersion)
        try c.encodeIfSet(currentRouteSegment, forKey: .currentRouteSegment)
        try c.encodeIfSet(currentRouteSegmentVersion, forKey: .currentRouteSegmentVersion)
        try c.encodeIfSet(currentRouteSegmentTraffic, forKey: .currentRouteSegmentTraffic)
        try c.encodeIfSet(currentRouteSegmentEndPoint, forKey: .currentRouteSegmentEndPoint)
        try c.encodeIfSet(remainingDistanceMeters, forKey: .remainingDistanceMeters)
        try c.encodeIfSet(remainingTimeSeconds, forKey: .remainingTimeSeconds)
        try c.encodeIfSet(etaToFirstWaypoint, forKey: .etaToFirstWaypoint)
        try c.encodeIfSet(navigationStatus, forKey: .navigationStatus)
        try c.encodeIfSet(deviceSettings, forKey: .deviceSettings)
        // Asking the encoder which extensions it writes hashes a key and casts what it finds:
        // only a vehicle that has the member asks.
        if let estimateMethod, ResourceExtensions.writes(CodingKeys.estimateMethod.stringValue, to: encoder) {
            try c.encode(estimateMethod, forKey: .estimateMethod)
        }
        if let estimateBasis, ResourceExtensions.writes(CodingKeys.estimateBasis.stringValue, to: encoder) {
            try c.encode(estimateBasis, forKey: .estimateBasis)
        }
    }
}
