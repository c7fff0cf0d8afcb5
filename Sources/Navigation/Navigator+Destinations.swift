// What the navigator knows about the destinations still ahead, from the same tables its
// NavInfo is made of: the application layer derives the riders' distances and times from
// this (DESIGN §5, one progress model), so a rider's ETA and the driver's screen agree.

import Geo

/// A destination the vehicle has not reached yet, measured along the route from where the
/// navigator has the vehicle.
public struct DestinationAhead: Hashable, Sendable {
    /// Index of the destination in the route's `destinations`.
    public var index: Int
    /// The destination's location.
    public var location: LatLng
    /// Metres along the route from the vehicle to the destination.
    public var distanceMeters: Double
    /// Seconds along the route from the vehicle to the destination (the route's own
    /// durations, or its length at the settings' default speed when it has none).
    public var timeSeconds: Double
}

extension Navigator {
    /// The destinations not reached yet, in route order, measured exactly as ``NavInfo``'s
    /// `distanceToNextDestinationMeters` / `timeToNextDestinationSeconds` (the first) and
    /// `...FinalDestination...` (the last); empty without a route, once stopped, and past the
    /// final destination.
    public var destinationsAhead: [DestinationAhead] {
        guard let route, let prepared, state.navState != .stopped else { return [] }
        let measure = prepared.measure
        let here = state.progress.meters
        let now = measure.seconds(at: state.progress)
        return route.destinations.indices.dropFirst(state.nextDestination).map { i in
            let point = route.destinations[i].polylinePointIndex
            return DestinationAhead(
                index: i, location: route.destinations[i].location,
                distanceMeters: max(0, prepared.destinationMeters[i] - here),
                timeSeconds: max(0, measure.seconds[point] - now))
        }
    }

    /// Where the navigator has the vehicle on its route: its last road-snapped position while
    /// it is `enroute`; nil otherwise (rerouting, stopped, no route).
    public var positionOnRoute: LatLng? {
        guard let prepared, state.navState == .enroute else { return nil }
        return prepared.measure.location(at: state.progress)
    }
}
