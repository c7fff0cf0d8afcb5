// The demo's routes with steps. The recorded log carries only route geometry (no steps, no
// road names), so the steps are inferred from the route's turns (NavRoute(inferringStepsAlong:)):
// enough for the share page and the navigator to show turn-by-turn, worded without names.

import Geo
import Navigation
import TripModel

extension DemoDrive {
    /// A route with inferred steps along a recorded `currentRouteSegment` (S2 or Google
    /// encoded), ending at `waypoint`; nil when the segment cannot make a route (fewer than
    /// two distinct points), in which case the update keeps sending it as it was recorded.
    static func route(along segment: String, toward waypoint: LatLng?) -> NavRoute? {
        guard let points = try? RouteGeometry.decode(segment, path: "currentRouteSegment"), let last = points.last else {
            return nil
        }
        let destination = RouteDestination(location: waypoint ?? last, polylinePointIndex: points.count - 1)
        // The log is from California: traffic keeps right.
        return try? NavRoute(inferringStepsAlong: points, destinations: [destination], drivingSide: .right)
    }

    /// The waypoint the trip's driver is heading for, by the trip's status: the pickup until
    /// it is reached, then the intermediate destinations in order, then the dropoff.
    static func nextWaypoint(of trip: Trip) -> LatLng? {
        let intermediates = trip.intermediateDestinations.map(\.point)
        switch trip.tripStatus {
        case .new, .enrouteToPickup, .unknown:
            return trip.pickupPoint?.point
        case .arrivedAtPickup:
            return intermediates.first ?? trip.dropoffPoint?.point
        case .enrouteToIntermediateDestination:
            let i = trip.intermediateDestinationIndex ?? 0
            return intermediates.indices.contains(i) ? intermediates[i] : trip.dropoffPoint?.point
        case .arrivedAtIntermediateDestination:
            let i = (trip.intermediateDestinationIndex ?? 0) + 1
            return intermediates.indices.contains(i) ? intermediates[i] : trip.dropoffPoint?.point
        case .enrouteToDropoff, .complete, .canceled:
            return trip.dropoffPoint?.point
        }
    }
}
