// Valhalla `/route` responses (native JSON, `trip.legs[].maneuvers` with numeric types)
// to a NavRoute, with the same mapping and wording as the OSRM importer. Shapes are
// precision 6 and land on the route's precision-5 grid. The response's `alternates`
// (requested with `alternates: N`) become alternate routes; Valhalla's route response
// reports no traffic lights or stop signs, so none are imported.

import Foundation
import Geo

/// Imports Valhalla route responses.
public enum ValhallaImporter {
    /// Turns a Valhalla route response into a route.
    public static func route(from data: Data) throws(RouteImportError) -> NavRoute {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw RouteImportError("not a Valhalla route response: \(error)")
        }
        let trip = response.trip
        guard !trip.legs.isEmpty else { throw RouteImportError("trip.legs: no legs") }
        let metresPerUnit = trip.units == "miles" ? 1609.344 : 1000
        let side = drivingSide(trip)
        var polyline = PolylineBuilder()
        var maneuvers: [ImportedManeuver] = []
        var destinations: [RouteDestination] = []
        for (l, leg) in trip.legs.enumerated() {
            let path = "trip.legs[\(l)]"
            let shape: [LatLng]
            do {
                shape = try EncodedPolyline.decode(leg.shape, precision: 6)
            } catch {
                throw RouteImportError("\(path).shape: \(error.description)")
            }
            guard !shape.isEmpty else { throw RouteImportError("\(path).shape: empty") }
            let indices = polyline.append(shape)
            var gaps: [(from: Int, to: Int, previousSpeed: Double?)] = []
            for (k, v) in leg.maneuvers.enumerated() {
                guard v.beginShapeIndex >= 0, v.beginShapeIndex <= v.endShapeIndex, v.endShapeIndex < shape.count else {
                    throw RouteImportError("\(path).maneuvers[\(k)]: shape indices outside the leg's \(shape.count) points")
                }
                let from = indices[v.beginShapeIndex]
                let to = indices[v.endShapeIndex]
                polyline.addDuration(v.time, from: from, to: to)
                // Shape a maneuver does not cover (Valhalla can end one before the next begins)
                // is still driven; it is timed below so the route has no instant stretches.
                let nextBegin = k + 1 < leg.maneuvers.count ? leg.maneuvers[k + 1].beginShapeIndex : shape.count - 1
                if nextBegin > v.endShapeIndex, nextBegin < shape.count, indices[nextBegin] > to {
                    let length = polyline.length(from: from, to: to)
                    gaps.append((to, indices[nextBegin], length > 0 && v.time > 0 ? length / v.time : nil))
                }
                let next = k + 1 < leg.maneuvers.count ? leg.maneuvers[k + 1] : nil
                var m = maneuver(v, next: next, side: side)
                m.pointIndex = from
                m.lengthAfterMeters = v.length * metresPerUnit
                if (4...6).contains(v.type) {
                    destinations.append(
                        RouteDestination(location: location(trip, leg: l) ?? polyline.points[to], polylinePointIndex: to))
                    m.destinationNumber = destinations.count
                    m.pointIndex = to
                }
                maneuvers.append(m)
            }
            timeGaps(gaps, in: &polyline, untimedSeconds: (leg.summary?.time ?? 0) - leg.maneuvers.reduce(0) { $0 + $1.time })
            if destinations.count < l + 1, let last = indices.last {
                destinations.append(
                    RouteDestination(location: location(trip, leg: l) ?? polyline.points[last], polylinePointIndex: last))
            }
        }
        var imported = ImportedManeuver.assemble(
            maneuvers, polyline: polyline, destinations: destinations, drivingSide: side)
        imported.alternateRoutes = try alternateRoutes(response.alternates ?? [])
        return imported
    }

    /// The alternates (at most two), each as one polyline and its time.
    private static func alternateRoutes(_ alternates: [Alternate]) throws(RouteImportError) -> [AlternateRoute]? {
        guard !alternates.isEmpty else { return nil }
        var routes: [AlternateRoute] = []
        for (a, alternate) in alternates.prefix(NavRoute.Limits.maxAlternateRoutes).enumerated() {
            var line = PolylineBuilder()
            var seconds = 0.0
            for (l, leg) in alternate.trip.legs.enumerated() {
                do {
                    _ = line.append(try EncodedPolyline.decode(leg.shape, precision: 6))
                } catch {
                    throw RouteImportError("alternates[\(a)].trip.legs[\(l)].shape: \(error.description)")
                }
                seconds += leg.summary?.time ?? leg.maneuvers.reduce(0) { $0 + $1.time }
            }
            guard line.points.count >= 2 else { throw RouteImportError("alternates[\(a)].trip.legs: no shape") }
            routes.append(
                AlternateRoute(
                    encodedPolyline: EncodedPolyline.encode(line.points), durationSeconds: alternate.trip.summary?.time ?? seconds))
        }
        return routes
    }

    /// Times the stretches no maneuver covers: the leg's time that its maneuvers leave out
    /// (its summary's time minus theirs), shared by length; without such time, each stretch at
    /// the speed of the maneuver before it, else at 50 km/h.
    private static func timeGaps(
        _ gaps: [(from: Int, to: Int, previousSpeed: Double?)], in polyline: inout PolylineBuilder, untimedSeconds: Double
    ) {
        let lengths = gaps.map { polyline.length(from: $0.from, to: $0.to) }
        let total = lengths.reduce(0, +)
        for (gap, length) in zip(gaps, lengths) where length > 0 {
            let seconds =
                untimedSeconds > 0 && total > 0
                ? untimedSeconds * length / total : length / (gap.previousSpeed ?? 50 / 3.6)
            polyline.addDuration(seconds, from: gap.from, to: gap.to)
        }
    }

    private static func drivingSide(_ trip: Trip) -> DrivingSide {
        let first = trip.legs.lazy.flatMap { $0.maneuvers }.compactMap { $0.driveOnRight }.first
        switch first {
        case true?: return .right
        case false?: return .left
        case nil: return .none
        }
    }

    /// The location a leg ends at, when the response lists one per leg end.
    private static func location(_ trip: Trip, leg: Int) -> LatLng? {
        guard let locations = trip.locations, locations.count == trip.legs.count + 1 else { return nil }
        let l = locations[leg + 1]
        return LatLng(latitude: l.lat, longitude: l.lon)
    }

    /// The table for Valhalla's maneuver types, but for roundabouts (26, 27),
    /// which depend on the angle and the driving side. A U-turn to the right (12) goes
    /// clockwise; 22–24 ("stay") are forks; 29 (leaving a ferry) drives on.
    private static let maneuvers: [Int: Maneuver] = [
        1: .depart, 2: .depart, 3: .depart, 4: .destination, 5: .destinationRight, 6: .destinationLeft,
        7: .nameChange, 8: .straight, 9: .turnSlightRight, 10: .turnRight, 11: .turnSharpRight,
        12: .turnUTurnClockwise, 13: .turnUTurnCounterClockwise, 14: .turnSharpLeft, 15: .turnLeft,
        16: .turnSlightLeft, 17: .onRampUnspecified, 18: .onRampRight, 19: .onRampLeft, 20: .offRampRight,
        21: .offRampLeft, 22: .straight, 23: .forkRight, 24: .forkLeft, 25: .mergeUnspecified, 37: .mergeRight,
        38: .mergeLeft, 28: .ferryBoat, 29: .straight,
    ]

    /// One Valhalla maneuver, mapped.
    private static func maneuver(_ v: ValhallaManeuver, next: ValhallaManeuver?, side: DrivingSide) -> ImportedManeuver {
        var roundaboutExit: Int?
        let kind: Maneuver
        switch v.type {
        case 26:
            roundaboutExit = v.roundaboutExitCount
            kind = ManeuverMapping.roundabout(angle: roundaboutAngle(v, next: next), side: side)
        case 27:
            kind = ManeuverMapping.roundaboutExit(side: side)
        default:
            kind = maneuvers[v.type] ?? .unknown
        }
        var m = ImportedManeuver(maneuver: kind, pointIndex: 0)
        let names = v.beginStreetNames ?? v.streetNames ?? []
        m.name = names.first ?? ""
        m.ref = names.dropFirst().joined(separator: ", ")
        let toward = v.sign?.exitTowardElements ?? v.sign?.exitBranchElements ?? []
        m.toward = toward.map(\.text).joined(separator: ", ")
        let exits = (v.sign?.exitNumberElements ?? []).map(\.text)
        m.exitNumber = exits.isEmpty ? nil : exits.joined(separator: ", ")
        m.roundaboutExit = roundaboutExit
        m.bearingAfter = v.bearingAfter ?? 0
        m.durationAfterSeconds = v.time
        m.lanes = (v.lanes ?? []).map { lane(($0.directions, ($0.active ?? 0) | ($0.valid ?? 0)), side: side) }
        return m
    }

    /// The angle through a roundabout: its own `turn_degree` when given, else from the
    /// heading into it to the heading out of the following exit maneuver.
    private static func roundaboutAngle(_ v: ValhallaManeuver, next: ValhallaManeuver?) -> Double? {
        if let degree = v.turnDegree { return degree }
        if let before = v.bearingBefore, let next, next.type == 27, let after = next.bearingAfter {
            return after - before
        }
        return nil
    }

    /// Valhalla's lane bits, lowest first: none, through, sharp left, left, slight left,
    /// slight right, right, sharp right, reverse, merge to left, merge to right.
    private static func lane(_ bits: (directions: Int, recommended: Int), side: DrivingSide) -> Lane {
        typealias D = ManeuverMapping.Direction
        let shapes: [D?] = [
            nil, .straight, .sharpLeft, .left, .slightLeft, .slightRight, .right, .sharpRight, .uTurn,
            .slightLeft, .slightRight,
        ]
        var directions: [LaneDirection] = []
        for (bit, d) in shapes.enumerated() where bits.directions & (1 << bit) != 0 {
            directions.append(
                LaneDirection(
                    laneShape: ManeuverMapping.laneShape(d, side: side), recommended: bits.recommended & (1 << bit) != 0))
        }
        return Lane(laneDirections: directions)
    }

    // MARK: - Response shape

    private struct Response: Decodable {
        var trip: Trip
        var alternates: [Alternate]?
    }

    private struct Alternate: Decodable {
        var trip: Trip
    }

    private struct Trip: Decodable {
        var locations: [Location]?
        var legs: [Leg]
        var units: String?
        var summary: Summary?
    }

    private struct Location: Decodable {
        var lat: Double
        var lon: Double
    }

    private struct Leg: Decodable {
        var maneuvers: [ValhallaManeuver]
        var shape: String
        var summary: Summary?
    }

    private struct Summary: Decodable {
        var time: Double?
    }

    private struct SignElement: Decodable {
        var text: String
    }

    private struct Sign: Decodable {
        var exitNumberElements: [SignElement]?
        var exitBranchElements: [SignElement]?
        var exitTowardElements: [SignElement]?

        enum CodingKeys: String, CodingKey {
            case exitNumberElements = "exit_number_elements"
            case exitBranchElements = "exit_branch_elements"
            case exitTowardElements = "exit_toward_elements"
        }
    }

    private struct ValhallaLane: Decodable {
        var directions: Int
        var valid: Int?
        var active: Int?
    }

    private struct ValhallaManeuver: Decodable {
        var type: Int
        var streetNames: [String]?
        var beginStreetNames: [String]?
        var bearingBefore: Double?
        var bearingAfter: Double?
        var turnDegree: Double?
        var time: Double
        var length: Double
        var beginShapeIndex: Int
        var endShapeIndex: Int
        var roundaboutExitCount: Int?
        var sign: Sign?
        var lanes: [ValhallaLane]?
        var driveOnRight: Bool?

        enum CodingKeys: String, CodingKey {
            case type, time, length, sign, lanes
            case streetNames = "street_names"
            case beginStreetNames = "begin_street_names"
            case bearingBefore = "bearing_before"
            case bearingAfter = "bearing_after"
            case turnDegree = "turn_degree"
            case beginShapeIndex = "begin_shape_index"
            case endShapeIndex = "end_shape_index"
            case roundaboutExitCount = "roundabout_exit_count"
            case driveOnRight = "drive_on_right"
        }
    }
}
