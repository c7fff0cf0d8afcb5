// The path to a vehicle's first waypoint, where it is the rest of the vehicle's route segment,
// is not stored with the vehicle (issue 30): at 20,000 points it is some 100 KB, and every
// location update wrote it into the vehicle's row (and the rows of its trips). The row keeps
// where the path starts (RouteTracking.firstLegStartMeters); reading the row cuts the path
// from the stored route segment again, as the refresh that made it did.

extension JourneyState {
    /// Whether a store leaves the path to the vehicle's first waypoint (and its traffic) out of
    /// the vehicle's row: the refresh cut it from the vehicle's route segment, as `tracking` says.
    package static func leavesOutFirstPath(of vehicle: Vehicle, tracking: RouteTracking) -> Bool {
        tracking.firstLegStartMeters != nil && vehicle.currentRouteSegment != nil && !vehicle.waypoints.isEmpty
    }

    /// `vehicle` as a store keeps it: without the path to its first waypoint and its traffic
    /// where ``leavesOutFirstPath(of:tracking:)``.
    package static func withoutFirstPath(_ vehicle: Vehicle, tracking: RouteTracking) -> Vehicle {
        guard leavesOutFirstPath(of: vehicle, tracking: tracking) else { return vehicle }
        var stored = vehicle
        stored.waypoints[0].encodedPathToWaypoint = nil
        stored.waypoints[0].trafficToWaypoint = nil
        return stored
    }

    /// Puts back on a vehicle read from a store what ``withoutFirstPath(_:tracking:)`` left
    /// out, cut from `route` (its route segment, measured) and its traffic.
    package static func restoreFirstPath(of vehicle: inout Vehicle, tracking: RouteTracking, route: MeasuredRoute?) {
        guard let start = tracking.firstLegStartMeters, let route, route.polyline == vehicle.currentRouteSegment, !vehicle.waypoints.isEmpty,
            vehicle.waypoints[0].encodedPathToWaypoint == nil
        else { return }
        let stretches = vehicle.currentRouteSegmentTraffic?.trafficRendering.roadStretch
        let path = TrafficPath.remainderPath(of: route, from: start, stretches: stretches)
        vehicle.waypoints[0].encodedPathToWaypoint = path.encoded
        vehicle.waypoints[0].trafficToWaypoint = path.intervals.isEmpty ? nil : ConsumableTrafficPolyline(speedReadingInterval: path.intervals)
    }
}
