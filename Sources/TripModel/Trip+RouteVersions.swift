// The versions a rider's app polls with (GetTrip's `currentRouteSegmentTrafficVersion`,
// `remainingWaypointsRouteVersion`) and whether the vehicle is on its route. They move only
// when what they describe changes other than by the vehicle moving along it: a location
// update trims the paths without bumping them, so the stores can keep deriving a trip's live
// fields from its vehicle (Trip.withProgress(of:)) instead of rewriting it per update.

extension Trip {
    /// How far from its route segment a vehicle's location may be and still be snapped onto
    /// it (`lastLocationSnappable`).
    package static let snappableMeters = 50.0

    /// Bumps the traffic and paths versions for a change that `pathsChanged` says happened
    /// (the stops and the route segment are compared in `updateProgress`), and records
    /// whether the vehicle lies on its route.
    mutating func updateRouteVersions(pathsChanged: Bool, snappable: Bool, now: Timestamp) {
        if pathsChanged {
            Versioning.bump(&currentRouteSegmentTrafficVersion, if: true, now: now)
            Versioning.bump(&remainingWaypointsRouteVersion, if: true, now: now)
        }
        lastLocationSnappable = remainingWaypoints.isEmpty ? nil : snappable
    }
}

extension Trip {
    /// The last time the trip is known to have changed: the latest of its vehicle's last
    /// report while it carried the trip, its versions, and the times it records (pickup,
    /// dropoff, arrivals). What SearchTrips' `minimumStaleness` compares; nil for a trip that
    /// records none (never assigned, never changed since it was created without stops).
    package var lastUpdateTime: Timestamp? {
        let times: [Timestamp?] = [
            lastLocation?.serverTime, remainingWaypointsVersion, remainingWaypointsRouteVersion, intermediateDestinationsVersion,
            currentRouteSegmentVersion, currentRouteSegmentTrafficVersion, actualPickupArrivalPoint?.timestamp,
            actualPickupPoint?.timestamp, actualDropoffPoint?.timestamp, actualIntermediateDestinationArrivalPoints.last?.timestamp,
            actualIntermediateDestinations.last?.timestamp, tripStatus.isTerminal ? dropoffTime : nil,
        ]
        return times.compactMap { $0 }.max()
    }
}
