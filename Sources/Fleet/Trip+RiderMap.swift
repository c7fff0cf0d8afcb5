import TripModel

extension Trip {
    /// The trip as its rider's live map draws it over the tiles, for keeping the tiles' street
    /// names clear of it (DESIGN §7, §15): what of it lies on the map for longer than one
    /// location report. That is the JOURNEY_SHARING_V1S view (the rider sees no more than that;
    /// other riders' stops stay bare), with the path to the first stop as the vehicle's route segment was planned rather
    /// than trimmed at the car (so it stays the same while the car drives along it), and
    /// without the car (it moves with every report) or traffic (it changes the line's colour,
    /// not where it lies). An ended trip has no route.
    package var riderMapOverlay: Trip {
        var planned = self
        if let segment = currentRouteSegment, !planned.remainingWaypoints.isEmpty,
            currentRouteSegmentEndPoint == nil || currentRouteSegmentEndPoint == planned.remainingWaypoints[0].stop
        {
            planned.remainingWaypoints[0].encodedPathToWaypoint = segment
            planned.remainingWaypoints[0].trafficToWaypoint = nil
        }
        var shown = planned.rendered(as: .journeySharingV1S)
        shown.lastLocation = nil
        for index in shown.remainingWaypoints.indices {
            let traffic = shown.remainingWaypoints[index].trafficToWaypoint
            shown.remainingWaypoints[index].encodedPathToWaypoint =
                shown.remainingWaypoints[index].encodedPathToWaypoint ?? traffic?.encodedPathToWaypoint
            shown.remainingWaypoints[index].trafficToWaypoint = nil
        }
        return shown
    }
}
