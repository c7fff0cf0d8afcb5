// The straight route the navigation tests drive: a line of points along a parallel, so every
// distance, time and step boundary is known by counting. The navigator's tests (a long
// Lisbon road with left turns) and the fleet's and server's (a short Berlin street with right
// turns, every step named) each used their own copy; they differ only in the options below.

import Foundation
import Geo
import Navigation

/// Straight test routes heading east along a parallel.
package enum StraightRoute {
    /// How the steps are named.
    package enum StepNames: Sendable {
        /// The turns "Road 1", "Road 2", ...; the departure and the destination unnamed.
        case roadsAtTurns
        /// Every step "Street 0", "Street 1", ..., the departure and the destination included.
        case streetsAtEveryStep
    }

    /// Where the navigator's tests start: a road in Lisbon.
    package static let lisbon = LatLng(latitude: 38.72, longitude: -9.14)
    /// Where the fleet's and the server's tests start: a street in Berlin.
    package static let berlin = LatLng(latitude: 52.52, longitude: 13.40)

    /// A route heading east from `origin`: `count` points `spacing` metres apart, a depart
    /// step, a `turn` every `stepEvery` points and the destination at the last point; traffic
    /// and free-flow durations at the given speeds (metres a second), the whole route under
    /// `speedLimitKph` when given, and a stop at point `intermediateDestinationAt` when given.
    package static func east(
        from origin: LatLng = lisbon, count: Int = 101, spacing: Double = 100, stepEvery: Int = 25, turn: Maneuver = .turnLeft,
        names: StepNames = .roadsAtTurns, trafficSpeed: Double = 10, freeFlowSpeed: Double? = nil, speedLimitKph: Double? = nil,
        intermediateDestinationAt: Int? = nil
    ) -> NavRoute {
        let degreesPerMetre = 180 / (Double.pi * Earth.radiusMeters)
        let dLng = spacing * degreesPerMetre / cos(origin.latitude * .pi / 180)
        let grid = (0..<count).map { LatLng(latitude: origin.latitude, longitude: origin.longitude + Double($0) * dLng) }
        // Round to the encoding grid first, so indices and lengths match the decoded route.
        let encoded = EncodedPolyline.encode(grid)
        let points = (try? EncodedPolyline.decode(encoded)) ?? grid
        let ends = [0] + Array(stride(from: stepEvery, to: count - 1, by: stepEvery)) + [count - 1]
        let steps = ends.indices.map { k in
            let isTurn = k > 0 && k < ends.count - 1
            let name =
                switch names {
                case .roadsAtTurns: isTurn ? "Road \(k)" : ""
                case .streetsAtEveryStep: "Street \(k)"
                }
            return StepInfo(
                stepNumber: k, maneuver: isTurn ? turn : k == 0 ? .depart : .destination, simpleRoadName: name,
                polylineStartIndex: k == 0 ? 0 : ends[k - 1],
                polylineEndIndex: ends[k])
        }
        let lengths = (1..<count).map { Earth.distance(points[$0 - 1], points[$0]) }
        var destinations = [RouteDestination(location: points[count - 1], polylinePointIndex: count - 1)]
        if let i = intermediateDestinationAt {
            destinations.insert(RouteDestination(location: points[i], polylinePointIndex: i), at: 0)
        }
        return NavRoute(
            encodedPolyline: encoded, steps: steps, segmentDurationsSeconds: lengths.map { $0 / trafficSpeed },
            freeFlowSegmentDurationsSeconds: freeFlowSpeed.map { speed in lengths.map { $0 / speed } },
            speedLimits: speedLimitKph.map {
                [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: count - 1, speedLimitKph: $0)]
            },
            destinations: destinations, drivingSide: .right)
    }

    /// The fleet's and the server's street: east from `origin` (Berlin by default), `count`
    /// points 50 m apart, a right turn every 10 points, every step named, driven at 10 m/s.
    package static func streets(from origin: LatLng = berlin, count: Int = 61) -> NavRoute {
        east(from: origin, count: count, spacing: 50, stepEvery: 10, turn: .turnRight, names: .streetsAtEveryStep)
    }

    /// The points of `route`'s polyline, which its steps and destinations index.
    package static func points(of route: NavRoute) -> [LatLng] {
        (try? EncodedPolyline.decode(route.encodedPolyline)) ?? []
    }
}
