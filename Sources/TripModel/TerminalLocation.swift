import Geo

/// A place a trip starts, stops or ends at (Fleet Engine `TerminalLocation`).
public struct TerminalLocation: Codable, Hashable, Sendable {
    /// Where the rider is picked up or dropped off.
    public var point: LatLng

    /// Creates a terminal location at `point`.
    public init(point: LatLng) { self.point = point }
}

/// Where and when a stop actually happened (`actualPickupPoint`, `actualDropoffPoint`).
public struct StopLocation: Codable, Hashable, Sendable {
    /// The actual location.
    public var point: LatLng
    /// When the stop happened.
    public var timestamp: Timestamp?
    /// When the vehicle arrived at the stop, if it waited.
    public var stopTime: Timestamp?

    /// Creates a stop location.
    public init(point: LatLng, timestamp: Timestamp? = nil, stopTime: Timestamp? = nil) {
        self.point = point
        self.timestamp = timestamp
        self.stopTime = stopTime
    }
}
