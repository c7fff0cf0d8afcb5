import Geo

extension Trip {
    /// The trip as `GET trip?view=` returns it. `SDK` (and unspecified) is every field.
    /// `JOURNEY_SHARING_V1S` is what a rider may see: the fields Fleet Engine documents for
    /// that view plus the versions a rider's app polls with (`remainingWaypointsVersion`,
    /// `remainingWaypointsRouteVersion`, `currentRouteSegmentTrafficVersion`); other
    /// riders' stops on a shared vehicle are reduced to their type, their legs joined into the
    /// rider's own (``riderWaypoints(of:in:)``).
    package func rendered(as view: TripView) -> Trip {
        guard view == .journeySharingV1S else {
            var copy = self
            copy.view = .sdk
            // `route` is the path to the first remaining waypoint, kept once (encoded) in
            // the waypoint rather than twice in storage.
            if copy.route.isEmpty, let path = remainingWaypoints.first?.encodedPathToWaypoint {
                copy.route = (try? EncodedPolyline.decode(path)) ?? []
            }
            return copy
        }
        var shown = Trip(name: name)
        shown.vehicleId = vehicleId
        shown.tripStatus = tripStatus
        shown.tripType = tripType
        shown.numberOfPassengers = numberOfPassengers
        shown.pickupPoint = pickupPoint
        shown.actualPickupPoint = actualPickupPoint
        shown.pickupTime = pickupTime
        shown.intermediateDestinations = intermediateDestinations
        shown.intermediateDestinationsVersion = intermediateDestinationsVersion
        shown.intermediateDestinationIndex = intermediateDestinationIndex
        shown.dropoffPoint = dropoffPoint
        shown.actualDropoffPoint = actualDropoffPoint
        shown.dropoffTime = dropoffTime
        shown.remainingWaypoints = Self.riderWaypoints(of: tripId, in: remainingWaypoints)
        shown.remainingWaypointsVersion = remainingWaypointsVersion
        shown.remainingWaypointsRouteVersion = remainingWaypointsRouteVersion
        shown.currentRouteSegmentTrafficVersion = currentRouteSegmentTrafficVersion
        shown.lastLocation = lastLocation
        shown.view = .journeySharingV1S
        return shown
    }
}
