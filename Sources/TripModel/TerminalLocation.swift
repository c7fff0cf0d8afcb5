import Geo
import JSON

/// A place a trip starts, stops or ends at (Fleet Engine `TerminalLocation`).
public struct TerminalLocation: Hashable, Sendable {
    /// Where the rider is picked up or dropped off.
    public var point: LatLng

    /// Creates a terminal location at `point`.
    public init(point: LatLng) { self.point = point }
}

extension TerminalLocation: Codable {
    enum CodingKeys: String, CodingKey {
        case point
        // Deprecated in Fleet Engine for `point` (and `Vehicle.waypoints`): accepted, not kept.
        case terminalPointId, accessPointId, tripId, terminalLocationType
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        point = try c.decode(LatLng.self, forKey: .point)
        _ = try c.decodeIfSet(DeprecatedTerminalPointId.self, forKey: .terminalPointId)
        _ = try c.decodeIfSet(String.self, forKey: .accessPointId)
        _ = try c.decodeIfSet(String.self, forKey: .tripId)
        _ = try c.decodeIfSet(WaypointType.self, forKey: .terminalLocationType)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(point, forKey: .point)
    }
}

/// Fleet Engine's deprecated `TerminalPointId`, read so that old clients are not refused.
struct DeprecatedTerminalPointId: Decodable {
    var placeId: String?
    var generatedId: String?
    var value: String?
}

/// Where and when a stop actually happened (`actualPickupPoint`, `actualDropoffPoint`, the
/// arrival points).
package struct StopLocation: Hashable, Sendable {
    /// The actual location.
    package var point: LatLng
    /// When the stop happened.
    package var timestamp: Timestamp?

    /// Creates a stop location.
    package init(point: LatLng, timestamp: Timestamp? = nil) {
        self.point = point
        self.timestamp = timestamp
    }
}

extension StopLocation: Codable {
    enum CodingKeys: String, CodingKey {
        case point, timestamp
        /// Deprecated for `timestamp`.
        case stopTime
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        point = try c.decode(LatLng.self, forKey: .point)
        timestamp = try DeprecatedTwin.read(Timestamp.self, c, .timestamp, deprecated: .stopTime)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(point, forKey: .point)
        try c.encodeIfSet(timestamp, forKey: .timestamp)
    }
}
