// The navigator's events, named after `GMSNavigatorListener`'s callbacks (DESIGN §8). Each
// encodes as its JSON payload (the `data:` of an SSE event); `name` is its `event:`.

import Foundation
import Geo
import TripModel

/// One thing the navigator reports.
public enum NavEvent: Hashable, Sendable {
    /// The vehicle's road-snapped location.
    case didUpdateLocation(SnappedLocation)
    /// The vehicle reached a destination (once per destination).
    case didArriveAtWaypoint(WaypointArrival)
    /// A new route was set.
    case navigatorDidChangeRoute(RouteChange)
    /// The time to the next destination changed by at least `timeUpdateThreshold`.
    case didUpdateRemainingTime(RemainingTime)
    /// The distance to the next destination changed by at least `distanceUpdateThreshold`.
    case didUpdateRemainingDistance(RemainingDistance)
    /// The traffic delay category changed.
    case didUpdateDelayCategory(DelayCategory)
    /// The suggested lighting mode changed.
    case didChangeSuggestedLightingMode(LightingMode)
    /// The speeding percentage changed.
    case didUpdateSpeedingPercentage(Double)
    /// The speed alert severity changed.
    case didUpdateSpeedAlertSeverity(SpeedAlertSeverity)
    /// The navigation state changed.
    case didUpdateNavInfo(NavInfo)

    /// The event's name, as DESIGN §8 spells it.
    public var name: String {
        switch self {
        case .didUpdateLocation: "didUpdateLocation"
        case .didArriveAtWaypoint: "didArriveAtWaypoint"
        case .navigatorDidChangeRoute: "navigatorDidChangeRoute"
        case .didUpdateRemainingTime: "didUpdateRemainingTime"
        case .didUpdateRemainingDistance: "didUpdateRemainingDistance"
        case .didUpdateDelayCategory: "didUpdateDelayCategory"
        case .didChangeSuggestedLightingMode: "didChangeSuggestedLightingMode"
        case .didUpdateSpeedingPercentage: "didUpdateSpeedingPercentage"
        case .didUpdateSpeedAlertSeverity: "didUpdateSpeedAlertSeverity"
        case .didUpdateNavInfo: "didUpdateNavInfo"
        }
    }

    /// A road-snapped location.
    public struct SnappedLocation: Hashable, Codable, Sendable {
        /// The location on the route (the raw one while off the route).
        public var location: LatLng
        /// The location as reported.
        package var rawLocation: LatLng
        /// The route's direction there (the reported heading while off the route), degrees.
        public var heading: Double?
        /// The speed used, m/s, if known.
        public var speedMetersPerSecond: Double?
        /// True when `location` lies on the route.
        package var isRoadSnapped: Bool
        /// Metres from the route's start to `location`, when snapped.
        package var distanceAlongRouteMeters: Double?
    }

    /// A destination reached.
    public struct WaypointArrival: Hashable, Codable, Sendable {
        /// Index of the destination in the route's `destinations`.
        package var destinationIndex: Int
        /// Where it is.
        public var location: LatLng
        /// True for the route's last destination.
        package var isFinalDestination: Bool
    }

    /// A summary of a newly set route.
    public struct RouteChange: Hashable, Codable, Sendable {
        /// Number of steps.
        package var stepCount: Int
        /// Number of destinations.
        package var destinationCount: Int
        /// Length, metres.
        package var distanceMeters: Double
        /// Duration, seconds.
        package var durationSeconds: Double
    }

    /// Times to the next and the final destination.
    public struct RemainingTime: Hashable, Codable, Sendable {
        /// Seconds to the next destination.
        package var timeToNextDestinationSeconds: Double
        /// Seconds to the final destination.
        package var timeToFinalDestinationSeconds: Double
    }

    /// Distances to the next and the final destination.
    public struct RemainingDistance: Hashable, Codable, Sendable {
        /// Metres to the next destination.
        package var distanceToNextDestinationMeters: Double
        /// Metres to the final destination.
        package var distanceToFinalDestinationMeters: Double
    }
}

extension NavEvent: Encodable {
    private enum ValueKeys: String, CodingKey {
        case delayCategory, suggestedLightingMode, speedingPercentage, speedAlertSeverity
    }

    /// Encodes the event's payload (not its name).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .didUpdateLocation(let v): try v.encode(to: encoder)
        case .didArriveAtWaypoint(let v): try v.encode(to: encoder)
        case .navigatorDidChangeRoute(let v): try v.encode(to: encoder)
        case .didUpdateRemainingTime(let v): try v.encode(to: encoder)
        case .didUpdateRemainingDistance(let v): try v.encode(to: encoder)
        case .didUpdateNavInfo(let v): try v.encode(to: encoder)
        case .didUpdateDelayCategory(let v):
            var c = encoder.container(keyedBy: ValueKeys.self)
            try c.encode(v, forKey: .delayCategory)
        case .didChangeSuggestedLightingMode(let v):
            var c = encoder.container(keyedBy: ValueKeys.self)
            try c.encode(v, forKey: .suggestedLightingMode)
        case .didUpdateSpeedingPercentage(let v):
            var c = encoder.container(keyedBy: ValueKeys.self)
            try c.encode(v, forKey: .speedingPercentage)
        case .didUpdateSpeedAlertSeverity(let v):
            var c = encoder.container(keyedBy: ValueKeys.self)
            try c.encode(v, forKey: .speedAlertSeverity)
        }
    }

    init(name: String, decoder: any Decoder) throws {
        switch name {
        case "didUpdateLocation": self = .didUpdateLocation(try SnappedLocation(from: decoder))
        case "didArriveAtWaypoint": self = .didArriveAtWaypoint(try WaypointArrival(from: decoder))
        case "navigatorDidChangeRoute": self = .navigatorDidChangeRoute(try RouteChange(from: decoder))
        case "didUpdateRemainingTime": self = .didUpdateRemainingTime(try RemainingTime(from: decoder))
        case "didUpdateRemainingDistance": self = .didUpdateRemainingDistance(try RemainingDistance(from: decoder))
        case "didUpdateNavInfo": self = .didUpdateNavInfo(try NavInfo(from: decoder))
        case "didUpdateDelayCategory":
            let c = try decoder.container(keyedBy: ValueKeys.self)
            self = .didUpdateDelayCategory(try c.decode(DelayCategory.self, forKey: .delayCategory))
        case "didChangeSuggestedLightingMode":
            let c = try decoder.container(keyedBy: ValueKeys.self)
            self = .didChangeSuggestedLightingMode(try c.decode(LightingMode.self, forKey: .suggestedLightingMode))
        case "didUpdateSpeedingPercentage":
            let c = try decoder.container(keyedBy: ValueKeys.self)
            self = .didUpdateSpeedingPercentage(try c.decode(Double.self, forKey: .speedingPercentage))
        case "didUpdateSpeedAlertSeverity":
            let c = try decoder.container(keyedBy: ValueKeys.self)
            self = .didUpdateSpeedAlertSeverity(try c.decode(SpeedAlertSeverity.self, forKey: .speedAlertSeverity))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown event \(name)"))
        }
    }
}

/// An event with its time, as one line of `tripshare navigate` output and one entry of the
/// event log: `{"event": NAME, "time": RFC 3339, "data": {...}}`.
package struct NavEventRecord: Hashable, Codable, Sendable {
    /// The event.
    package var event: NavEvent
    /// When it happened (the time of the location update or route change).
    package var time: Date

    /// Creates a record.
    package init(event: NavEvent, time: Date) {
        self.event = event
        self.time = time
    }

    private enum CodingKeys: String, CodingKey {
        case event, time, data
    }

    /// Encodes `event` (name), `time` (RFC 3339, UTC) and `data`.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event.name, forKey: .event)
        try c.encode(Timestamp(time).rfc3339, forKey: .time)
        try c.encode(event, forKey: .data)
    }

    /// Decodes a record written by ``encode(to:)``.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .event)
        let text = try c.decode(String.self, forKey: .time)
        guard let time = Timestamp(rfc3339: text)?.date else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "not an RFC 3339 time")
        }
        self.time = time
        event = try NavEvent(name: name, decoder: c.superDecoder(forKey: .data))
    }
}
