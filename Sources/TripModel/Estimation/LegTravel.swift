import Geo
import JSON

/// A vehicle's way to its next stop as the server followed it, for the detour the fleet learns
/// from it (``AreaObservation``): where the stop became the vehicle's next, when it set off,
/// and how far it drove until it arrived. Kept with the vehicle's tracking state.
package struct LegTravel: Codable, Hashable, Sendable {
    /// The stop.
    package var stop: TripWaypoint
    /// The time of the vehicle's latest fix when the stop became its next.
    package var began: Timestamp
    /// Where the vehicle was then; nil while it had no location.
    package var origin: LatLng?
    /// Seconds from ``began`` until the vehicle was ``Estimation/setOffMeters`` from
    /// ``origin``; nil while it has not set off.
    package var setOffSeconds: Double?
    /// Metres between its fixes since it set off.
    package var drivenMeters: Double
    /// The leg can no longer tell how far the way was (a GPS jump, no location when it began),
    /// or it has taught its detour already: nothing more is learnt.
    package var broken: Bool

    /// A leg to `stop` beginning at `began` where the vehicle is at `origin`.
    package init(stop: TripWaypoint, began: Timestamp, origin: LatLng?) {
        self.stop = stop
        self.began = began
        self.origin = origin
        drivenMeters = 0
        broken = origin == nil
    }
}

extension LegTravel {
    /// The synthesised encoding with nil members left out by `encodeIfSet` (see
    /// ``RouteTracking``'s).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(stop, forKey: .stop)
        try c.encode(began, forKey: .began)
        try c.encodeIfSet(origin, forKey: .origin)
        try c.encodeIfSet(setOffSeconds, forKey: .setOffSeconds)
        try c.encode(drivenMeters, forKey: .drivenMeters)
        try c.encode(broken, forKey: .broken)
    }
}
