// Steps for a route that has only its geometry, as a driver app without a router's
// maneuvers would have: a `depart`, one step per turn the TurnDetector finds, and an arrival
// at each destination. There are no road names, so the instructions are the plain templates
// ("Turn left", "Make a U-turn", "Arrive at your destination"), and the times are the
// traffic-free AUTO speed the trip estimates use, so the navigator and the trip views agree.

import Geo
import TripModel

extension NavRoute {
    /// A route along `points` with steps inferred from its turns: `depart`, one step per turn
    /// of 25° or more (measured over 20 m either side, so dense vertices and small zigzags
    /// make none), and a `destination` step at each destination. Points are put on the
    /// precision-5 grid of the encoded polyline, repeats dropped; `destinations` index into
    /// `points`, in order, the last at the last point. Step and segment times assume the
    /// traffic-free AUTO speed of ``TripModel/Estimation/freeFlowSpeed(_:)``. `drivingSide`
    /// decides which way a U-turn goes. Throws, naming the field, when fewer than two distinct
    /// points remain or the destinations are out of order or out of range.
    package init(
        inferringStepsAlong points: [LatLng], destinations: [RouteDestination], drivingSide: DrivingSide = .right
    ) throws(NavRouteError) {
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw NavRouteError(path: "points[\(bad)]", message: "not a valid latitude/longitude")
        }
        var polyline = PolylineBuilder()
        let indices = polyline.append(points)
        guard polyline.points.count >= 2, let line = PolylineMeasure(polyline.points) else {
            throw NavRouteError(path: "points", message: "needs at least 2 distinct points")
        }
        let last = polyline.points.count - 1
        var mapped: [RouteDestination] = []
        for (i, destination) in destinations.enumerated() {
            guard destination.polylinePointIndex >= 0, destination.polylinePointIndex < points.count,
                case let index = indices[destination.polylinePointIndex], index > (mapped.last?.polylinePointIndex ?? -1)
            else {
                throw NavRouteError(
                    path: "destinations[\(i)].polylinePointIndex",
                    message: "must be after the previous destination and within the \(points.count) points")
            }
            mapped.append(RouteDestination(location: destination.location, polylinePointIndex: index))
        }
        guard mapped.last?.polylinePointIndex == last else {
            throw NavRouteError(path: "destinations", message: "the last destination must be at the last point")
        }

        // Maneuvers in route order: the turns, then each destination; a turn on a
        // destination's point is the arrival.
        let stops = Set(mapped.map(\.polylinePointIndex))
        var maneuvers = TurnDetector.turns(along: line).filter { !stops.contains($0.pointIndex) }.compactMap {
            turn -> (index: Int, maneuver: Maneuver, bearing: Double, destination: Int?)? in
            guard let direction = TurnDetector.direction(angle: turn.angle) else { return nil }
            return (turn.pointIndex, ManeuverMapping.turn(direction, side: drivingSide), turn.bearingAfter, nil)
        }
        for (k, destination) in mapped.enumerated() {
            maneuvers.append((destination.polylinePointIndex, .destination, 0, k + 1))
        }
        maneuvers.sort { $0.index < $1.index }

        let speed = Estimation.freeFlowSpeed(.auto)
        let departBearing = Earth.initialBearing(
            from: line.points[0], to: line.point(atDistance: TurnDetector.armMeters))
        var steps = [
            StepInfo(
                stepNumber: 0, maneuver: .depart,
                fullInstructionText: RouteText.instruction(Self.context(.depart, bearing: departBearing)),
                drivingSide: drivingSide, polylineStartIndex: 0, polylineEndIndex: 0)
        ]
        var start = 0
        for m in maneuvers {
            let meters = line.cumulativeMeters[m.index] - line.cumulativeMeters[start]
            let seconds = meters / speed
            polyline.addDuration(seconds, from: start, to: m.index)
            var context = Self.context(m.maneuver, bearing: m.bearing)
            context.destinationNumber = m.destination
            context.isFinalDestination = m.destination == mapped.count
            steps.append(
                StepInfo(
                    stepNumber: steps.count, maneuver: m.maneuver, fullInstructionText: RouteText.instruction(context),
                    drivingSide: drivingSide, distanceFromPrevStepMeters: meters, timeFromPrevStepSeconds: seconds,
                    polylineStartIndex: start, polylineEndIndex: m.index))
            start = m.index
        }
        self.init(
            encodedPolyline: EncodedPolyline.encode(polyline.points), steps: steps,
            segmentDurationsSeconds: polyline.segmentDurations, destinations: mapped, drivingSide: drivingSide)
    }

    /// An instruction's context without a road: the templates' plain wording.
    private static func context(_ maneuver: Maneuver, bearing: Double) -> RouteText.Context {
        RouteText.Context(
            maneuver: maneuver, road: "", toward: "", exitNumber: nil, roundaboutExit: nil, bearingAfter: bearing,
            destinationNumber: nil, isFinalDestination: false)
    }
}
