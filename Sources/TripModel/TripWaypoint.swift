import Geo
import JSON

/// A stop on a vehicle's route, with the path and estimates from the previous stop (or the
/// vehicle) to it (Fleet Engine `TripWaypoint`).
public struct TripWaypoint: Hashable, Sendable {
    /// Where the stop is.
    public var location: TerminalLocation?
    /// The trip this stop belongs to.
    package var tripId: String?
    /// What the stop is for.
    package var waypointType: WaypointType?
    /// The path from the previous waypoint (or the vehicle) to this one, Google encoded
    /// polyline precision 5.
    public var encodedPathToWaypoint: String?
    /// The same path as a list of points: only in answers to a `GET` that asked for
    /// `routeFormatType=LAT_LNG_LIST_TYPE` (the path is kept encoded).
    package var pathToWaypoint: [LatLng] = []
    /// Traffic along `encodedPathToWaypoint`.
    package var trafficToWaypoint: ConsumableTrafficPolyline?
    /// Driving distance from the previous waypoint (or the vehicle), metres.
    package var distanceMeters: Int?
    /// Estimated arrival time.
    package var eta: Timestamp?
    /// Estimated driving time from the previous waypoint (or the vehicle).
    package var duration: ProtoDuration?

    /// Creates a waypoint.
    package init(
        location: TerminalLocation? = nil, tripId: String? = nil, waypointType: WaypointType? = nil,
        encodedPathToWaypoint: String? = nil, trafficToWaypoint: ConsumableTrafficPolyline? = nil,
        distanceMeters: Int? = nil, eta: Timestamp? = nil, duration: ProtoDuration? = nil
    ) {
        self.location = location
        self.tripId = tripId
        self.waypointType = waypointType
        self.encodedPathToWaypoint = encodedPathToWaypoint
        self.trafficToWaypoint = trafficToWaypoint
        self.distanceMeters = distanceMeters
        self.eta = eta
        self.duration = duration
    }

    /// The same stop without the path and estimates (what identifies it).
    package var stop: TripWaypoint {
        TripWaypoint(location: location, tripId: tripId, waypointType: waypointType)
    }
}

extension TripWaypoint: Codable {
    // Declared in the order `encode(to:)` writes them.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case location, tripId, waypointType, pathToWaypoint, encodedPathToWaypoint, trafficToWaypoint
        case distanceMeters, eta, duration
    }

    /// The members written after `encodedPathToWaypoint`: where a store that leaves the path
    /// out of a stored vehicle puts it back.
    package static let membersEncodedAfterPath = membersEncoded(after: .encodedPathToWaypoint)
    /// The members written after `trafficToWaypoint`, likewise.
    package static let membersEncodedAfterTraffic = membersEncoded(after: .trafficToWaypoint)

    private static func membersEncoded(after key: CodingKeys) -> Set<String> {
        Set(CodingKeys.allCases.drop { $0 != key }.dropFirst().map(\.stringValue))
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        location = try c.decodeIfSet(TerminalLocation.self, forKey: .location)
        tripId = try c.decodeIfSet(String.self, forKey: .tripId)
        waypointType = try c.decodeIfSet(WaypointType.self, forKey: .waypointType)
        encodedPathToWaypoint = try c.decodeIfSet(String.self, forKey: .encodedPathToWaypoint)
        let path = try c.decodeArray(LatLng.self, forKey: .pathToWaypoint)
        if !path.isEmpty {
            let encoded = EncodedPolyline.encode(path)
            if let encodedPathToWaypoint, encodedPathToWaypoint != encoded {
                throw FieldValidationError(
                    codingPath: c.codingPath + [CodingKeys.pathToWaypoint],
                    message: "'pathToWaypoint' and 'encodedPathToWaypoint' are two forms of one path and must agree")
            }
            encodedPathToWaypoint = encoded
        }
        trafficToWaypoint = try c.decodeIfSet(ConsumableTrafficPolyline.self, forKey: .trafficToWaypoint)
        distanceMeters = try c.decodeIfSet(Int.self, forKey: .distanceMeters)
        eta = try c.decodeIfSet(Timestamp.self, forKey: .eta)
        duration = try c.decodeIfSet(ProtoDuration.self, forKey: .duration)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfSet(location, forKey: .location)
        try c.encodeIfSet(tripId, forKey: .tripId)
        try c.encodeIfSet(waypointType, forKey: .waypointType)
        try c.encodeNonEmpty(pathToWaypoint, forKey: .pathToWaypoint)
        try c.encodeIfSet(encodedPathToWaypoint, forKey: .encodedPathToWaypoint)
        try c.encodeIfSet(trafficToWaypoint, forKey: .trafficToWaypoint)
        try c.encodeIfSet(distanceMeters, forKey: .distanceMeters)
        try c.encodeIfSet(eta, forKey: .eta)
        try c.encodeIfSet(duration, forKey: .duration)
    }
}
