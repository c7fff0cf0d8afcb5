import Foundation
import Geo
import Navigation

/// Small routes made up for tests.
enum TestRoutes {
    /// A route heading east from `origin` along its parallel: `count` points `spacing`
    /// metres apart, a depart step, a turn every `stepEvery` points, and the destination
    /// at the end; traffic and free-flow durations at the given speeds.
    static func east(
        from origin: LatLng = LatLng(latitude: 38.72, longitude: -9.14), count: Int = 101, spacing: Double = 100,
        stepEvery: Int = 25, trafficSpeed: Double = 10, freeFlowSpeed: Double? = nil,
        speedLimitKph: Double? = nil, intermediateDestinationAt: Int? = nil
    ) -> NavRoute {
        let degreesPerMetre = 180 / (Double.pi * Earth.radiusMeters)
        let dLng = spacing * degreesPerMetre / cos(origin.latitude * .pi / 180)
        let points = (0..<count).map {
            LatLng(latitude: origin.latitude, longitude: origin.longitude + Double($0) * dLng)
        }
        // Round to the encoding grid first, so indices and lengths match the decoded route.
        let encoded = EncodedPolyline.encode(points)
        let decoded = (try? EncodedPolyline.decode(encoded)) ?? points
        var steps = [StepInfo(stepNumber: 0, maneuver: .depart, polylineStartIndex: 0, polylineEndIndex: 0)]
        var index = stepEvery
        while index < count - 1 {
            steps.append(
                StepInfo(
                    stepNumber: steps.count, maneuver: .turnLeft, simpleRoadName: "Road \(steps.count)",
                    polylineStartIndex: steps[steps.count - 1].polylineEndIndex, polylineEndIndex: index))
            index += stepEvery
        }
        steps.append(
            StepInfo(
                stepNumber: steps.count, maneuver: .destination,
                polylineStartIndex: steps[steps.count - 1].polylineEndIndex, polylineEndIndex: count - 1))
        var lengths: [Double] = []
        for i in 0..<(decoded.count - 1) { lengths.append(Earth.distance(decoded[i], decoded[i + 1])) }
        var destinations = [RouteDestination(location: decoded[count - 1], polylinePointIndex: count - 1)]
        if let i = intermediateDestinationAt {
            destinations.insert(RouteDestination(location: decoded[i], polylinePointIndex: i), at: 0)
        }
        return NavRoute(
            encodedPolyline: encoded, steps: steps, segmentDurationsSeconds: lengths.map { $0 / trafficSpeed },
            freeFlowSegmentDurationsSeconds: freeFlowSpeed.map { s in lengths.map { $0 / s } },
            speedLimits: speedLimitKph.map {
                [SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: count - 1, speedLimitKph: $0)]
            },
            destinations: destinations, drivingSide: .right)
    }

    /// A point `north` metres north of `p`.
    static func offset(_ p: LatLng, north: Double) -> LatLng {
        LatLng(latitude: p.latitude + north * 180 / (Double.pi * Earth.radiusMeters), longitude: p.longitude)
    }
}

extension Navigator {
    /// Feeds one trace point.
    mutating func update(_ p: TracePoint) -> [NavEvent] {
        update(
            location: p.location, heading: p.heading, speedMetersPerSecond: p.speedMetersPerSecond,
            accuracyMeters: p.accuracyMeters, time: p.time)
    }
}

extension NavEvent {
    var navInfo: NavInfo? {
        if case .didUpdateNavInfo(let info) = self { return info }
        return nil
    }
}
