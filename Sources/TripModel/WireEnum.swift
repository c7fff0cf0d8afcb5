// Fleet Engine enums travel as their exact spellings; an unknown spelling is rejected with
// the list of accepted ones so the client sees what to send.

/// An enum coded as one of a fixed set of strings.
public protocol WireEnum: RawRepresentable, CaseIterable, Codable, Hashable, Sendable
where RawValue == String {}

extension WireEnum {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            let accepted = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown value '\(text.prefix(64))'; expected one of \(accepted)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Whether a trip may share the vehicle with other trips.
public enum TripType: String, WireEnum {
    case shared = "SHARED"
    case exclusive = "EXCLUSIVE"
}

/// Whether a vehicle accepts new trips.
public enum VehicleState: String, WireEnum {
    case offline = "OFFLINE"
    case online = "ONLINE"
}

/// The kind of vehicle (`vehicleType.category`); it picks the fallback speed for estimates.
public enum VehicleCategory: String, WireEnum {
    case auto = "AUTO"
    case taxi = "TAXI"
    case truck = "TRUCK"
    case twoWheeler = "TWO_WHEELER"
    case bicycle = "BICYCLE"
    case pedestrian = "PEDESTRIAN"
}

/// What a waypoint is for.
public enum WaypointType: String, WireEnum {
    case pickup = "PICKUP_WAYPOINT_TYPE"
    case dropOff = "DROP_OFF_WAYPOINT_TYPE"
    case intermediateDestination = "INTERMEDIATE_DESTINATION_WAYPOINT_TYPE"
}

/// The driver app's navigation state as it reports it.
public enum NavigationStatus: String, WireEnum {
    case noGuidance = "NO_GUIDANCE"
    case enrouteToDestination = "ENROUTE_TO_DESTINATION"
    case offRoute = "OFF_ROUTE"
    case arrivedAtDestination = "ARRIVED_AT_DESTINATION"
}

/// The traffic speed of a stretch of route.
public enum TrafficSpeed: String, WireEnum {
    /// No traffic data for the stretch.
    case unspecified = "SPEED_UNSPECIFIED"
    case normal = "NORMAL"
    case slow = "SLOW"
    case trafficJam = "TRAFFIC_JAM"
}

/// The style of a road stretch in a driver's `currentRouteSegmentTraffic`.
public enum RoadStretchStyle: String, WireEnum {
    case unspecified = "STYLE_UNSPECIFIED"
    case slowerTraffic = "SLOWER_TRAFFIC"
    case trafficJam = "TRAFFIC_JAM"
}

/// Which fields of a trip a `GET` returns.
public enum TripView: String, WireEnum {
    case unspecified = "TRIP_VIEW_UNSPECIFIED"
    /// Every field (the default).
    case sdk = "SDK"
    /// What a rider may see: no other riders' data, no attributes.
    case journeySharingV1S = "JOURNEY_SHARING_V1S"
}

/// Where a location came from.
public enum LocationSensor: String, WireEnum {
    case unknown = "UNKNOWN_SENSOR"
    case gps = "GPS"
    case network = "NETWORK"
    case passive = "PASSIVE"
    case roadSnappedLocationProvider = "ROAD_SNAPPED_LOCATION_PROVIDER"
    case customerSuppliedLocation = "CUSTOMER_SUPPLIED_LOCATION"
    case fleetEngineLocation = "FLEET_ENGINE_LOCATION"
    case fusedLocationProvider = "FUSED_LOCATION_PROVIDER"
    case coreLocation = "CORE_LOCATION"
}
