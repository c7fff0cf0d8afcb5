// What both importers know about one maneuver before it becomes a step; the assembly
// shifts lengths and durations by one, because a router's step runs from its maneuver to
// the next while the SDK's step runs from the previous maneuver to its own.

import Geo

struct ImportedManeuver {
    var maneuver: Maneuver
    /// Route polyline point where the maneuver is done.
    var pointIndex: Int
    var name = ""
    var ref = ""
    var toward = ""
    var exitNumber: String?
    var roundaboutExit: Int?
    var lanes: [Lane] = []
    var bearingAfter = 0.0
    /// Length of the router's step that starts here, metres.
    var lengthAfterMeters = 0.0
    /// Duration of the router's step that starts here, seconds.
    var durationAfterSeconds = 0.0
    /// 1-based number of the destination this maneuver arrives at.
    var destinationNumber: Int?

    /// Builds the route from the joined polyline and the maneuvers in order.
    static func assemble(
        _ maneuvers: [ImportedManeuver], polyline: PolylineBuilder, destinations: [RouteDestination],
        drivingSide: DrivingSide
    ) -> NavRoute {
        var steps: [StepInfo] = []
        steps.reserveCapacity(maneuvers.count)
        for (k, m) in maneuvers.enumerated() {
            let previous = k > 0 ? maneuvers[k - 1] : nil
            let road = RouteText.simpleName(name: m.name, ref: m.ref)
            let text = RouteText.instruction(
                RouteText.Context(
                    maneuver: m.maneuver, road: road, toward: m.toward, exitNumber: m.exitNumber,
                    roundaboutExit: m.roundaboutExit, bearingAfter: m.bearingAfter,
                    destinationNumber: m.destinationNumber,
                    isFinalDestination: m.destinationNumber == destinations.count))
            steps.append(
                StepInfo(
                    stepNumber: k, maneuver: m.maneuver,
                    fullRoadName: RouteText.fullName(name: m.name, ref: m.ref, toward: m.toward, exitNumber: m.exitNumber),
                    simpleRoadName: road, fullInstructionText: text, exitNumber: m.exitNumber,
                    drivingSide: drivingSide, roundaboutTurnNumber: m.roundaboutExit ?? -1,
                    distanceFromPrevStepMeters: previous?.lengthAfterMeters ?? 0,
                    timeFromPrevStepSeconds: previous?.durationAfterSeconds ?? 0, lanes: m.lanes,
                    polylineStartIndex: previous?.pointIndex ?? 0, polylineEndIndex: m.pointIndex))
        }
        return NavRoute(
            encodedPolyline: EncodedPolyline.encode(polyline.points), steps: steps,
            segmentDurationsSeconds: polyline.segmentDurations, destinations: destinations,
            drivingSide: drivingSide)
    }
}
