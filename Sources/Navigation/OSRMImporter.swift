// OSRM v5 `/route` responses (with `steps=true`) to a NavRoute. All legs of the first
// route are joined; each leg's arrival becomes a destination. Maneuvers follow the issue's
// mapping table; lanes come from the step's first intersection, which is the one at the
// maneuver; lengths and durations move to the SDK's "from the previous step" convention.
// The other routes of the response (`alternatives=true`) become alternate routes. OSRM
// itself reports no traffic lights or stop signs; responses in the Mapbox dialect of the
// format mark intersections with `traffic_signal` / `stop_sign`, which become road features.

import Foundation
import Geo

/// Imports OSRM v5 route responses.
public enum OSRMImporter {
    /// Turns an OSRM route response into a route. `precision` is that of the step
    /// geometries (5 for OSRM's default `polyline`, 6 for `polyline6`); GeoJSON geometries
    /// are read as they are.
    public static func route(from data: Data, precision: Int = 5) throws(RouteImportError) -> NavRoute {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw RouteImportError("not an OSRM route response: \(error)")
        }
        if let code = response.code, code != "Ok" {
            throw RouteImportError("OSRM answered \(code)")
        }
        guard let route = response.routes?.first else { throw RouteImportError("routes: no route in the response") }
        guard !route.legs.isEmpty else { throw RouteImportError("routes[0].legs: no legs") }

        var polyline = PolylineBuilder()
        var maneuvers: [ImportedManeuver] = []
        var destinations: [RouteDestination] = []
        var features: [RoadFeature] = []
        let side = drivingSide(route)
        for (l, leg) in route.legs.enumerated() {
            guard let steps = leg.steps, !steps.isEmpty else {
                throw RouteImportError("routes[0].legs[\(l)].steps: missing (request the route with steps=true)")
            }
            for (s, step) in steps.enumerated() {
                let path = "routes[0].legs[\(l)].steps[\(s)]"
                let points = try step.geometry.points(precision: precision, path: "\(path).geometry")
                let indices = polyline.append(points)
                guard let first = indices.first, let last = indices.last else {
                    throw RouteImportError("\(path).geometry: empty")
                }
                features += roadFeatures(step.intersections ?? [], points: points, indices: indices)
                polyline.addDuration(step.duration, from: first, to: last)
                let next = s + 1 < steps.count ? steps[s + 1] : nil
                var m = maneuver(step, next: next, side: side, previousMode: s > 0 ? steps[s - 1].mode : nil)
                m.pointIndex = first
                if step.maneuver.type == "arrive" {
                    destinations.append(
                        RouteDestination(
                            location: waypoint(response, l + 1) ?? polyline.points[last], polylinePointIndex: last,
                            name: waypointName(response, l + 1)))
                    m.destinationNumber = destinations.count
                    m.pointIndex = last
                }
                maneuvers.append(m)
            }
            if destinations.count < l + 1 {
                let last = polyline.points.count - 1
                destinations.append(
                    RouteDestination(
                        location: waypoint(response, l + 1) ?? polyline.points[last], polylinePointIndex: last,
                        name: waypointName(response, l + 1)))
            }
        }
        var imported = ImportedManeuver.assemble(
            maneuvers, polyline: polyline, destinations: destinations, drivingSide: side)
        imported.roadFeatures = features.isEmpty ? nil : features.sorted { $0.polylinePointIndex < $1.polylinePointIndex }
        imported.alternateRoutes = try alternateRoutes(response, precision: precision)
        return imported
    }

    /// The response's other routes (at most two), each as one polyline and its duration.
    private static func alternateRoutes(_ response: Response, precision: Int) throws(RouteImportError) -> [AlternateRoute]? {
        let others = (response.routes ?? []).dropFirst().prefix(NavRoute.Limits.maxAlternateRoutes)
        guard !others.isEmpty else { return nil }
        var alternates: [AlternateRoute] = []
        for (r, route) in zip(1..., others) {
            var line = PolylineBuilder()
            if let geometry = route.geometry {
                _ = line.append(try geometry.points(precision: precision, path: "routes[\(r)].geometry"))
            } else {
                for (l, leg) in route.legs.enumerated() {
                    for (s, step) in (leg.steps ?? []).enumerated() {
                        _ = line.append(try step.geometry.points(precision: precision, path: "routes[\(r)].legs[\(l)].steps[\(s)].geometry"))
                    }
                }
            }
            guard line.points.count >= 2 else { throw RouteImportError("routes[\(r)]: no geometry (request overview=full or steps=true)") }
            let duration = route.duration ?? route.legs.reduce(0) { $0 + ($1.steps ?? []).reduce(0) { $0 + $1.duration } }
            alternates.append(AlternateRoute(encodedPolyline: EncodedPolyline.encode(line.points), durationSeconds: duration))
        }
        return alternates
    }

    /// Traffic lights and stop signs at a step's intersections, placed at the step's
    /// geometry point nearest each intersection.
    private static func roadFeatures(_ intersections: [Intersection], points: [LatLng], indices: [Int]) -> [RoadFeature] {
        var features: [RoadFeature] = []
        for intersection in intersections {
            let kinds: [RoadFeature.Kind] =
                (intersection.trafficSignal == true ? [.trafficLight] : [])
                + (intersection.stopSign == true ? [.stopSign] : [])
            guard !kinds.isEmpty, let location = intersection.location, location.count == 2 else { continue }
            let at = LatLng(latitude: location[1], longitude: location[0])
            guard let nearest = points.indices.min(by: { Earth.distance(points[$0], at) < Earth.distance(points[$1], at) })
            else { continue }
            for kind in kinds { features.append(RoadFeature(type: kind, polylinePointIndex: indices[nearest])) }
        }
        return features
    }

    private static func drivingSide(_ route: Route) -> DrivingSide {
        let first = route.legs.lazy.compactMap { $0.steps?.first?.drivingSide }.first
        switch first {
        case "right": return .right
        case "left": return .left
        default: return .none
        }
    }

    private static func waypoint(_ response: Response, _ index: Int) -> LatLng? {
        guard let waypoints = response.waypoints, index < waypoints.count,
            let location = waypoints[index].location, location.count == 2
        else { return nil }
        return LatLng(latitude: location[1], longitude: location[0])
    }

    /// A waypoint's street name, nil when it has none.
    private static func waypointName(_ response: Response, _ index: Int) -> String? {
        guard let waypoints = response.waypoints, index < waypoints.count, let name = waypoints[index].name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The maneuver of one step, following the mapping table.
    private static func maneuver(_ step: Step, next: Step?, side: DrivingSide, previousMode: String?) -> ImportedManeuver {
        let type = step.maneuver.type
        let modifier = step.maneuver.modifier
        let direction = ManeuverMapping.direction(osrmModifier: modifier)
        var roundaboutExit: Int?
        let kind: Maneuver
        switch type {
        case "depart":
            kind = .depart
        case "arrive":
            switch direction {
            case .slightLeft, .left, .sharpLeft: kind = .destinationLeft
            case .slightRight, .right, .sharpRight: kind = .destinationRight
            default: kind = .destination
            }
        case "new name":
            kind = .nameChange
        case "merge":
            kind = ManeuverMapping.merge(direction)
        case "fork":
            kind = ManeuverMapping.fork(direction)
        case "on ramp":
            kind = ManeuverMapping.ramp("onRamp", direction, side: side)
        case "off ramp":
            kind = ManeuverMapping.ramp("offRamp", direction, side: side)
        case "roundabout", "rotary", "roundabout turn":
            roundaboutExit = step.maneuver.exit
            kind = ManeuverMapping.roundabout(angle: roundaboutAngle(step, next: next), side: side)
        case "exit roundabout", "exit rotary":
            roundaboutExit = step.maneuver.exit
            kind = ManeuverMapping.roundaboutExit(side: side)
        default:
            // turn, continue, end of road, notification and anything newer.
            kind =
                direction == nil && !["turn", "continue", "end of road"].contains(type)
                ? .unknown : ManeuverMapping.turn(direction, side: side)
        }
        var m = ImportedManeuver(maneuver: kind, pointIndex: 0)
        if step.mode != previousMode, step.mode == "ferry" || step.mode == "train" {
            m.maneuver = step.mode == "train" ? .ferryTrain : .ferryBoat
        }
        m.name = step.name ?? ""
        m.ref = step.ref ?? ""
        m.toward = step.destinations ?? ""
        m.exitNumber = step.exits.flatMap { $0.isEmpty ? nil : $0 }
        m.roundaboutExit = roundaboutExit
        m.bearingAfter = step.maneuver.bearingAfter ?? 0
        m.lengthAfterMeters = step.distance
        m.durationAfterSeconds = step.duration
        m.lanes = lanes(step, modifier: modifier, side: side)
        return m
    }

    /// Entry-to-exit angle: from the heading into the roundabout to the heading out of it,
    /// which is the following `exit roundabout|rotary` step's `bearing_after`, or, for a
    /// `roundabout turn` (no exit step), the step's own `bearing_after`.
    private static func roundaboutAngle(_ step: Step, next: Step?) -> Double? {
        guard let before = step.maneuver.bearingBefore else { return nil }
        if let next, next.maneuver.type == "exit roundabout" || next.maneuver.type == "exit rotary",
            let after = next.maneuver.bearingAfter
        {
            return after - before
        }
        if step.maneuver.type == "roundabout turn", let after = step.maneuver.bearingAfter {
            return after - before
        }
        return nil
    }

    /// Lanes of the intersection at the maneuver, left to right. In a lane OSRM marks as
    /// valid, the indications that match the maneuver's modifier are recommended (all of
    /// them when none matches); nothing in an invalid lane is.
    private static func lanes(_ step: Step, modifier: String?, side: DrivingSide) -> [Lane] {
        guard let lanes = step.intersections?.first?.lanes else { return [] }
        return lanes.map { lane in
            let indications = lane.indications ?? []
            let matches = modifier.map { indications.contains($0) } ?? false
            return Lane(
                laneDirections: indications.map { indication in
                    LaneDirection(
                        laneShape: ManeuverMapping.laneShape(ManeuverMapping.direction(osrmModifier: indication), side: side),
                        recommended: (lane.valid ?? false) && (!matches || indication == modifier))
                })
        }
    }

    // MARK: - Response shape

    private struct Response: Decodable {
        var code: String?
        var routes: [Route]?
        var waypoints: [Waypoint]?
    }

    private struct Route: Decodable {
        var legs: [Leg]
        var geometry: Geometry?
        var duration: Double?
    }

    private struct Leg: Decodable {
        var steps: [Step]?
    }

    private struct Waypoint: Decodable {
        var location: [Double]?
        var name: String?
    }

    private struct Step: Decodable {
        var geometry: Geometry
        var maneuver: StepManeuver
        var mode: String?
        var name: String?
        var ref: String?
        var destinations: String?
        var exits: String?
        var drivingSide: String?
        var distance: Double
        var duration: Double
        var intersections: [Intersection]?

        enum CodingKeys: String, CodingKey {
            case geometry, maneuver, mode, name, ref, destinations, exits, distance, duration, intersections
            case drivingSide = "driving_side"
        }
    }

    private struct StepManeuver: Decodable {
        var type: String
        var modifier: String?
        var exit: Int?
        var bearingBefore: Double?
        var bearingAfter: Double?

        enum CodingKeys: String, CodingKey {
            case type, modifier, exit
            case bearingBefore = "bearing_before"
            case bearingAfter = "bearing_after"
        }
    }

    private struct Intersection: Decodable {
        var lanes: [IntersectionLane]?
        var location: [Double]?
        var trafficSignal: Bool?
        var stopSign: Bool?

        enum CodingKeys: String, CodingKey {
            case lanes, location
            case trafficSignal = "traffic_signal"
            case stopSign = "stop_sign"
        }
    }

    private struct IntersectionLane: Decodable {
        var indications: [String]?
        var valid: Bool?
    }

    /// A step geometry: an encoded polyline or a GeoJSON LineString.
    private enum Geometry: Decodable {
        case encoded(String)
        case coordinates([[Double]])

        private struct LineString: Decodable {
            var coordinates: [[Double]]
        }

        init(from decoder: any Decoder) throws {
            if let s = try? decoder.singleValueContainer().decode(String.self) {
                self = .encoded(s)
            } else {
                self = .coordinates(try LineString(from: decoder).coordinates)
            }
        }

        func points(precision: Int, path: String) throws(RouteImportError) -> [LatLng] {
            switch self {
            case .encoded(let s):
                do {
                    return try EncodedPolyline.decode(s, precision: precision)
                } catch {
                    throw RouteImportError("\(path): \(error.description)")
                }
            case .coordinates(let c):
                return try c.map { (pair: [Double]) throws(RouteImportError) -> LatLng in
                    guard pair.count >= 2 else { throw RouteImportError("\(path): a coordinate needs 2 numbers") }
                    return LatLng(latitude: pair[1], longitude: pair[0])
                }
            }
        }
    }
}
