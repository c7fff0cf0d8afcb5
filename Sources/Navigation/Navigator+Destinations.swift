// What the navigator knows about the destinations still ahead, from the same tables its
// NavInfo is made of: the application layer derives the riders' distances and times from
// this (DESIGN §5, one progress model), so a rider's ETA and the driver's screen agree.

import Geo

/// A destination the vehicle has not reached yet, measured along the route from where the
/// navigator has the vehicle.
package struct DestinationAhead: Hashable, Sendable {
    /// Index of the destination in the route's `destinations`.
    package var index: Int
    /// The destination's location.
    package var location: LatLng
    /// Metres along the route from the vehicle to the destination.
    package var distanceMeters: Double
    /// Seconds along the route from the vehicle to the destination (the route's own
    /// durations, or its length at the settings' default speed when it has none).
    package var timeSeconds: Double
    /// The previous destination's location; nil for the route's first destination.
    package var previousLocation: LatLng?
    /// The route from the previous destination (or the route's start) to this one, thinned
    /// to fit a `currentRouteSegment`.
    package var pathFromPrevious: [LatLng]
}

extension Navigator {
    /// The destinations not reached yet, in route order, measured exactly as ``NavInfo``'s
    /// `distanceToNextDestinationMeters` / `timeToNextDestinationSeconds` (the first) and
    /// `...FinalDestination...` (the last); empty without a route, once stopped, and past the
    /// final destination.
    package var destinationsAhead: [DestinationAhead] {
        guard let route, let prepared, state.navState != .stopped else { return [] }
        let measure = prepared.measure
        let here = state.progress.meters
        let now = measure.seconds(at: state.progress)
        return route.destinations.indices.dropFirst(state.nextDestination).map { i in
            let point = route.destinations[i].polylinePointIndex
            return DestinationAhead(
                index: i, location: route.destinations[i].location,
                distanceMeters: max(0, prepared.destinationMeters[i] - here),
                timeSeconds: max(0, measure.seconds[point] - now),
                previousLocation: i == 0 ? nil : route.destinations[i - 1].location,
                pathFromPrevious: prepared.legPaths[i])
        }
    }

    /// The index of the destination the vehicle is heading for; nil without a route and past
    /// the final destination. It moves on when the navigator reports an arrival.
    package var currentLeg: Int? {
        guard let route, state.nextDestination < route.destinations.count else { return nil }
        return state.nextDestination
    }

    /// The route of ``currentLeg`` as a vehicle's `currentRouteSegment`: what riders and the
    /// estimator follow once the vehicle has passed a destination on the way to the next.
    package var currentLegPolyline: String? {
        guard let leg = currentLeg, let prepared else { return nil }
        return EncodedPolyline.encode(prepared.legPaths[leg])
    }

    /// Where the navigator has the vehicle on its route: its last road-snapped position while
    /// it is `enroute`; nil otherwise (rerouting, stopped, no route).
    package var positionOnRoute: LatLng? {
        guard let prepared, state.navState == .enroute else { return nil }
        return prepared.measure.location(at: state.progress)
    }
}
