// One location update through the navigator, on the real 13,444 km Portugal–Korea route
// (80k points, 422 steps) and on a synthetic route ten times longer (there and back five
// times: 803k points, 4,220 steps). The vehicle drives the same stretch in both, so any
// difference is the route's length; the per-update cost should not have one.

import Benchmark
import Foundation
import Geo
import Navigation

/// A navigator already following a route, and the next updates to feed it.
struct UpdateSetup: Sendable {
    var navigator: Navigator
    var points: [TracePoint]

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static func osrmRoute() throws -> NavRoute {
        try OSRMImporter.route(from: Data(contentsOf: fixtures.appendingPathComponent("osrm/portugal_to_korea.json")))
    }

    /// The route driven there and back `times / 2` times.
    static func repeated(_ route: NavRoute, times: Int) throws -> NavRoute {
        let points = try route.validate()
        let durations = route.segmentDurationsSeconds ?? []
        var all: [LatLng] = []
        var allDurations: [Double] = []
        var ends: [Int] = []
        for copy in 0..<times {
            let forward = copy % 2 == 0
            let offset = all.isEmpty ? 0 : all.count - 1
            let copyPoints = forward ? points : points.reversed()
            all.append(contentsOf: all.isEmpty ? copyPoints : Array(copyPoints.dropFirst()))
            allDurations.append(contentsOf: forward ? durations : durations.reversed())
            let copyEnds = route.steps.map { forward ? $0.polylineEndIndex : points.count - 1 - $0.polylineEndIndex }
            ends.append(contentsOf: copyEnds.sorted().map { $0 + offset })
        }
        var steps: [StepInfo] = []
        for (k, end) in ends.enumerated() {
            steps.append(
                StepInfo(
                    stepNumber: k, maneuver: k == 0 ? .depart : k == ends.count - 1 ? .destination : .straight,
                    polylineStartIndex: k == 0 ? 0 : ends[k - 1], polylineEndIndex: end))
        }
        return NavRoute(
            encodedPolyline: EncodedPolyline.encode(all), steps: steps, segmentDurationsSeconds: allDurations,
            destinations: [RouteDestination(location: all[all.count - 1], polylinePointIndex: all.count - 1)],
            drivingSide: .right)
    }

    /// A navigator on `route` that has already found the vehicle 100,000 s into the drive.
    static func make(route: NavRoute, drive: NavRoute, updates: Int) throws -> UpdateSetup {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var points: [TracePoint] = []
        for p in try DriveSimulator(route: drive, start: start, interval: 1) {
            if p.time.timeIntervalSince(start) < 100_000 { continue }
            points.append(p)
            if points.count > updates { break }
        }
        _ = navigator.update(points.removeFirst()) // the one whole-route search after setRoute
        return UpdateSetup(navigator: navigator, points: points)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(10))
    do {
        let route = try UpdateSetup.osrmRoute()
        let long = try UpdateSetup.repeated(route, times: 10)
        let real = try UpdateSetup.make(route: route, drive: route, updates: 1_000)
        let tenfold = try UpdateSetup.make(route: long, drive: route, updates: 1_000)

        Benchmark("Navigator.update, Portugal–Korea (80k points, 422 steps)") { benchmark in
            var navigator = real.navigator
            for i in benchmark.scaledIterations { blackHole(navigator.update(real.points[i])) }
        }
        Benchmark("Navigator.update, 10x longer route (803k points, 4220 steps)") { benchmark in
            var navigator = tenfold.navigator
            for i in benchmark.scaledIterations { blackHole(navigator.update(tenfold.points[i])) }
        }
        Benchmark("OSRMImporter + setRoute, Portugal–Korea", configuration: .init(scalingFactor: .one)) { benchmark in
            let data = try Data(contentsOf: UpdateSetup.fixtures.appendingPathComponent("osrm/portugal_to_korea.json"))
            benchmark.startMeasurement()
            var navigator = Navigator()
            blackHole(try navigator.setRoute(try OSRMImporter.route(from: data), at: Date()))
        }
    } catch {
        print("NavigationBenchmarks: cannot set up: \(error)")
    }
}

extension Navigator {
    mutating func update(_ p: TracePoint) -> [NavEvent] {
        update(
            location: p.location, heading: p.heading, speedMetersPerSecond: p.speedMetersPerSecond,
            accuracyMeters: p.accuracyMeters, time: p.time)
    }
}
