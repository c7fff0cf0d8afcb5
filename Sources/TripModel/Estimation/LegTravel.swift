import Geo

/// A vehicle's way to its next stop as the server followed it, for what the fleet learns from
/// it (``AreaObservation``): where and when the stop became the vehicle's next, when it set
/// off, and how far it drove until it arrived. Kept with the vehicle's tracking state.
public struct LegTravel: Codable, Hashable, Sendable {
    /// The stop.
    public var stop: TripWaypoint
    /// The server time it became the vehicle's next stop.
    public var began: Timestamp
    /// Where the vehicle was then; nil while it had no location.
    public var origin: LatLng?
    /// Seconds from ``began`` until the vehicle was ``Estimation/setOffMeters`` from
    /// ``origin``; nil while it has not set off.
    public var setOffSeconds: Double?
    /// Metres between its fixes since it set off.
    public var drivenMeters: Double
    /// The leg can no longer tell how far the way was (a GPS jump, a gap in its fixes, no
    /// location when it began): no detour is learnt from it.
    public var broken: Bool
    /// The fleet's usual standing time before setting off (``AreaObservation/Kind/setOff``),
    /// read when the leg began; nil when the fleet has shown none.
    public var expectedSetOffSeconds: Double?

    /// A leg to `stop` beginning at `now` where the vehicle is at `origin`.
    public init(stop: TripWaypoint, began: Timestamp, origin: LatLng?, expectedSetOffSeconds: Double?) {
        self.stop = stop
        self.began = began
        self.origin = origin
        drivenMeters = 0
        broken = origin == nil
        self.expectedSetOffSeconds = expectedSetOffSeconds
    }

    /// The seconds the vehicle is still expected to stand before it sets off, at `now`: the
    /// fleet's usual standing time less what it has stood already; 0 once it set off, or
    /// when the fleet has shown none.
    public func remainingSetOffSeconds(now: Timestamp) -> Double {
        guard setOffSeconds == nil, let expected = expectedSetOffSeconds else { return 0 }
        return max(0, expected - now.seconds(since: began))
    }
}
