// The marker and polyline kinds a style sheet styles, named as the Consumer SDK's
// `GMTCMarkerType` and `GMTCPolylineType` are (lowerCamel), and the traffic speed types
// (`GMTSSpeedType`) that polylines colour their runs by.

import TripModel

/// The kinds of marker on a trip preview.
public enum MarkerType: String, CaseIterable, Hashable, Sendable, Codable {
    /// Where the rider is picked up.
    case tripPickupPoint
    /// Where the rider is dropped off.
    case tripDropoffPoint
    /// The vehicle serving the trip.
    case tripVehicle
    /// A stop between pickup and dropoff (drawn numbered).
    case intermediateDestination
}

/// The kinds of route line on a trip preview.
public enum PolylineType: String, CaseIterable, Hashable, Sendable, Codable {
    /// From the vehicle to this trip's next waypoint.
    case activeRoute
    /// From that waypoint on to this trip's dropoff.
    case remainingRoute
}

/// A traffic speed a polyline run can be coloured by.
public enum SpeedType: String, CaseIterable, Hashable, Sendable, Codable {
    /// No traffic data for the run.
    case noData
    /// Traffic flows normally.
    case normal
    /// Traffic is slower than usual.
    case slow
    /// Traffic is jammed.
    case trafficJam

    /// The one of four values that belongs to this speed: the single place that maps a
    /// speed to its member of a per-speed table (``TrafficColors`` and its patch).
    func select<Value>(noData: Value, normal: Value, slow: Value, trafficJam: Value) -> Value {
        switch self {
        case .noData: noData
        case .normal: normal
        case .slow: slow
        case .trafficJam: trafficJam
        }
    }

    /// The speed type of a rider-facing traffic interval.
    public init(_ speed: TrafficSpeed) {
        switch speed {
        case .unspecified: self = .noData
        case .normal: self = .normal
        case .slow: self = .slow
        case .trafficJam: self = .trafficJam
        }
    }

    /// Reads a path segment: the style sheet spelling (`trafficJam`) or the API's traffic
    /// speed spelling (`TRAFFIC_JAM`, `SPEED_UNSPECIFIED`).
    package init?(pathSegment text: String) {
        if let value = SpeedType(rawValue: text) {
            self = value
        } else if let speed = TrafficSpeed(rawValue: text) {
            self.init(speed)
        } else {
            return nil
        }
    }
}
