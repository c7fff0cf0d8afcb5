import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

/// The two navigator defects of issue 15, each on data other than the fixture that showed it.
@Suite struct DriveDefectTests {
    /// A faster replay stays physically possible: at 1x, 10x and 60x every report is
    /// reachable from the one before at the route's own speeds, the jump filter drops none,
    /// every step is passed and the destination is reached (the factor used to multiply the
    /// speed instead, and the filter dropped nearly every fix).
    @Test(arguments: [1.0, 10.0, 60.0]) func speedFactorCompressesTime(factor: Double) throws {
        // 30 km at 30 m/s, a turn every 2.5 km: a motorway drive.
        let route = StraightRoute.east(count: 301, stepEvery: 25, trafficSpeed: 30)
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        let drive = try DriveSimulator(route: route, start: start, interval: 1, speedFactor: factor)
        let points = Array(drive)
        #expect(abs(drive.durationSeconds - 1_000) < 1, "the drive keeps its own duration")
        #expect(abs(Double(points.count) - 1_000 / factor) <= 2, "fewer reports, not a faster car")
        for (a, b) in zip(points, points.dropFirst()) {
            let speed = Earth.distance(a.location, b.location) / b.time.timeIntervalSince(a.time)
            #expect(speed <= 30.01, "reports \(a.time) → \(b.time) imply \(speed) m/s")
        }
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var arrivals = 0
        var steps = Set<Int>()
        for point in points {
            for event in navigator.update(point) {
                if case .didArriveAtWaypoint = event { arrivals += 1 }
                if case .didUpdateNavInfo(let info) = event, let step = info.currentStep { steps.insert(step.stepNumber) }
            }
        }
        #expect(navigator.jumpFilterStatistics.droppedJumps == 0)
        #expect(navigator.jumpFilterStatistics.accepted == points.count)
        #expect(arrivals == 1)
        #expect(factor > 20 || steps.count == route.steps.count - 1, "every maneuver after the start was announced")
    }

    /// A Valhalla leg whose maneuvers leave part of the shape uncovered (one ends before the
    /// next begins) is still timed there: with the leg's untimed seconds when its summary has
    /// them, else at the previous maneuver's speed. The drive then reaches the end and arrives.
    @Test(arguments: [true, false]) func uncoveredValhallaShapeIsTimed(withSummary: Bool) throws {
        // 12 points 100 m apart heading north in Lisbon; maneuvers cover 0–3 and 3–7 only.
        let points = (0..<12).map { LatLng(latitude: 38.70 + Double($0) * 0.0009, longitude: -9.14) }
        let shape = EncodedPolyline.encode(points, precision: 6)
        let summary = withSummary ? #","summary":{"time":110,"length":1.0}"# : ""
        let json = """
            {"trip":{"units":"kilometers","locations":[{"lat":38.70,"lon":-9.14},{"lat":38.7099,"lon":-9.1401}],
             "legs":[{"shape":"\(shape)"\(summary),"maneuvers":[
               {"type":1,"street_names":["Rua A"],"bearing_after":0,"time":30,"length":0.3,"begin_shape_index":0,"end_shape_index":3},
               {"type":10,"street_names":["Rua B"],"time":40,"length":0.4,"begin_shape_index":3,"end_shape_index":7},
               {"type":4,"time":0,"length":0,"begin_shape_index":11,"end_shape_index":11}]}]}}
            """
        let route = try ValhallaImporter.route(from: Data(json.utf8))
        let durations = try #require(route.segmentDurationsSeconds)
        #expect(durations.count == 11)
        #expect(durations.allSatisfy { $0 > 0 }, "no stretch of the route is driven in no time: \(durations)")
        let uncovered = durations[7...].reduce(0, +)
        #expect(abs(uncovered - 40) < 0.5, "summary's 110 s minus the maneuvers' 70 s, or 400 m at 10 m/s")

        for factor in [1.0, 5.0] {
            let start = Date(timeIntervalSince1970: 1_760_000_000)
            var navigator = Navigator()
            _ = try navigator.setRoute(route, at: start)
            var arrived = false
            let drive = Array(try DriveSimulator(route: route, start: start, interval: 1, speedFactor: factor))
            for point in drive {
                for case .didArriveAtWaypoint(let a) in navigator.update(point) where a.isFinalDestination { arrived = true }
            }
            #expect(arrived, "arrival at speed factor \(factor)")
            #expect(navigator.jumpFilterStatistics.droppedJumps == 0)
            #expect(navigator.jumpFilterStatistics.accepted == drive.count, "the last report is not held back")
        }
    }
}

/// The navigate defect of issue 28.
@Suite struct SparseDriveArrivalTests {
    /// Regression: `navigate --drive --speed-factor 10 --interval 60` on the Portugal–Korea
    /// route never reported an arrival. Reports came 600 s of driving apart, and the last one,
    /// at the destination 5.8 km past the one before, said speed 0: the navigator looked for
    /// it only as far ahead as that speed allowed, found it off the route and never arrived.
    /// It now looks at least as far as the fixes themselves moved.
    @Test(arguments: [(10.0, 60.0), (60.0, 10.0), (10.0, 6.0)])
    func sparseReportsStillArrive(speedFactor: Double, interval: Double) throws {
        let route = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var arrivals: [NavEvent.WaypointArrival] = []
        var last: TracePoint?
        for point in try DriveSimulator(route: route, start: start, interval: interval, speedFactor: speedFactor) {
            last = point
            for event in navigator.update(point) {
                if case .didArriveAtWaypoint(let arrival) = event { arrivals.append(arrival) }
            }
        }
        let final = try #require(last)
        #expect(Earth.distance(final.location, try #require(route.destinations.last).location) < 1, "the last fix is at the destination")
        #expect(arrivals.count == 1 && arrivals.first?.isFinalDestination == true, "\(arrivals)")
        #expect(navigator.navInfo.navState == .stopped)
    }
}
