// Fleet Engine enums travel as their exact spellings or, as proto3 JSON allows, their
// numbers; we answer with the spellings. An enum's zero value (`UNKNOWN_TRIP_TYPE`, `0`)
// means unset (StrictJSONDecoder reads it so through ProtoDefaultDecodable). An unknown
// spelling is rejected with the list of accepted ones so the client sees what to send.

import JSON

/// An enum coded as one of a fixed set of strings (Fleet Engine's enum names) or their
/// numbers.
public protocol WireEnum: RawRepresentable, CaseIterable, Codable, Hashable, Sendable, ProtoDefaultDecodable
where RawValue == String {
    /// The name of the enum's zero value, which means unset (`UNKNOWN_TRIP_TYPE`): by
    /// default the first case's, when it is one (`UNKNOWN...`, `..._UNSPECIFIED`).
    static var unsetName: String? { get }
    /// The case's number on the wire: by default its position among the cases, counted from
    /// 0 when the first case is the zero value and from 1 otherwise (declare cases in order).
    var number: Int { get }
}

extension WireEnum {
    public static var unsetName: String? {
        guard let first = allCases.first?.rawValue, first.hasPrefix("UNKNOWN") || first.hasSuffix("UNSPECIFIED") else { return nil }
        return first
    }

    public var number: Int {
        let position = Self.allCases.firstIndex(of: self).map { Self.allCases.distance(from: Self.allCases.startIndex, to: $0) } ?? 0
        return Self.unsetName == Self.allCases.first?.rawValue ? position : position + 1
    }

    /// The case numbered `number`, if any.
    package init?(number: Int) {
        guard let match = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = match
    }

    /// The zero value, by name or number.
    public static func isUnset(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let name): return name == unsetName
        case .number(let n, _): return n == 0
        default: return false
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            if let value = Self(rawValue: text) ?? Int(text).flatMap(Self.init(number:)) {
                self = value
                return
            }
            let accepted = Self.allCases.map(\.rawValue).joined(separator: ", ")
            let reason = text == Self.unsetName ? "'\(text)' means unset and is not allowed here" : "unknown value '\(text.prefix(64))'"
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(reason); expected one of \(accepted)")
        }
        let number = try container.decode(Int.self)
        guard let value = Self(number: number) else {
            let accepted = Self.allCases.map { "\($0.number) (\($0.rawValue))" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown value \(number); expected one of \(accepted)")
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

    public static var unsetName: String? { "UNKNOWN_TRIP_TYPE" }
}

/// Whether a vehicle accepts new trips.
public enum VehicleState: String, WireEnum {
    case offline = "OFFLINE"
    case online = "ONLINE"

    public static var unsetName: String? { "UNKNOWN_VEHICLE_STATE" }
}

/// The kind of vehicle (`vehicleType.category`); it picks the fallback speed for estimates.
public enum VehicleCategory: String, WireEnum {
    case auto = "AUTO"
    case taxi = "TAXI"
    case truck = "TRUCK"
    case twoWheeler = "TWO_WHEELER"
    case bicycle = "BICYCLE"
    case pedestrian = "PEDESTRIAN"

    public static var unsetName: String? { "UNKNOWN" }
}

/// What a waypoint is for.
package enum WaypointType: String, WireEnum {
    case pickup = "PICKUP_WAYPOINT_TYPE"
    case dropOff = "DROP_OFF_WAYPOINT_TYPE"
    case intermediateDestination = "INTERMEDIATE_DESTINATION_WAYPOINT_TYPE"

    package static var unsetName: String? { "UNKNOWN_WAYPOINT_TYPE" }
}

/// The driver app's navigation state as it reports it.
package enum NavigationStatus: String, WireEnum {
    case noGuidance = "NO_GUIDANCE"
    case enrouteToDestination = "ENROUTE_TO_DESTINATION"
    case offRoute = "OFF_ROUTE"
    case arrivedAtDestination = "ARRIVED_AT_DESTINATION"

    package static var unsetName: String? { "UNKNOWN_NAVIGATION_STATUS" }
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
package enum RoadStretchStyle: String, WireEnum {
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
package enum LocationSensor: String, WireEnum {
    case unknown = "UNKNOWN_SENSOR"
    case gps = "GPS"
    case network = "NETWORK"
    case passive = "PASSIVE"
    case roadSnappedLocationProvider = "ROAD_SNAPPED_LOCATION_PROVIDER"
    case customerSuppliedLocation = "CUSTOMER_SUPPLIED_LOCATION"
    case fleetEngineLocation = "FLEET_ENGINE_LOCATION"
    case fusedLocationProvider = "FUSED_LOCATION_PROVIDER"
    case coreLocation = "CORE_LOCATION"

    package var number: Int {
        switch self {
        case .unknown: 0
        case .gps: 1
        case .network: 2
        case .passive: 3
        case .roadSnappedLocationProvider: 4
        case .customerSuppliedLocation: 5
        case .fleetEngineLocation: 6
        case .fusedLocationProvider: 100
        case .coreLocation: 200
        }
    }
}
