import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing
import TripModel

/// The navigator as a server stores it: route apart, progress per update.
@Suite struct NavigatorStorageTests {
    /// A navigator restored from its route and saved progress, or moved to that progress on
    /// a cached copy, carries on exactly as the original.
    @Test func progressRestoresOnTheRoute() throws {
        let route = StraightRoute.east(count: 101, trafficSpeed: 8, freeFlowSpeed: 10, speedLimitKph: 30)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let points = Array(try DriveSimulator(route: route, start: start, interval: 3))
        var original = Navigator()
        _ = try original.setRoute(route, at: start)
        let cached = original
        for p in points.prefix(200) { _ = original.update(p) }
        let saved = try JSONEncoder().encode(original.progress)
        let progress = try JSONDecoder().decode(Navigator.Progress.self, from: saved)
        var rebuilt = try Navigator(route: route, progress: progress)
        var moved = cached
        moved.restore(progress)
        #expect(rebuilt.navInfo == original.navInfo && moved.navInfo == original.navInfo)
        for p in points.dropFirst(200) {
            let expected = original.update(p)
            #expect(rebuilt.update(p) == expected)
            #expect(moved.update(p) == expected)
        }
    }

    /// An arrival stays the news until it is acknowledged, then the next one is.
    @Test func arrivalAcknowledged() throws {
        let route = StraightRoute.east(count: 101, intermediateDestinationAt: 50)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var drive = try DriveSimulator(route: route, start: start, interval: 1)
        while navigator.arrivedDestinationIndex == nil, let p = drive.next() { _ = navigator.update(p) }
        #expect(navigator.arrivedDestinationIndex == 0)
        navigator.acknowledgeArrival()
        #expect(navigator.arrivedDestinationIndex == nil)
        #expect(navigator.navInfo.navState == .enroute)
        while let p = drive.next() { _ = navigator.update(p) }
        #expect(navigator.arrivedDestinationIndex == 1)
    }

    /// A NavInfo limited to a few remaining steps still counts them all, and reads back so.
    @Test func limitedRemainingSteps() throws {
        let route = StraightRoute.east(count: 101, stepEvery: 5)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: Date(timeIntervalSince1970: 1_750_000_000))
        let full = navigator.navInfo
        #expect(full.remainingSteps.count > 3 && full.remainingStepCount == full.remainingSteps.count)
        let short = full.limitingRemainingSteps(to: 3)
        #expect(short.currentStep == full.currentStep)
        #expect(Array(short.remainingSteps) == Array(full.remainingSteps.prefix(3)))
        #expect(short.remainingStepCount == full.remainingStepCount)
        let decoded = try JSONDecoder().decode(NavInfo.self, from: JSONEncoder().encode(short))
        #expect(decoded == short)
        #expect(decoded.remainingStepCount == full.remainingStepCount)
        #expect(full.limitingRemainingSteps(to: 1_000) == full)
    }

    /// The first leg fits a vehicle's currentRouteSegment: all of a short route, and the
    /// 80,000-point Portugal–Korea route thinned within the bounds, ends kept.
    @Test func firstLegWithinBounds() throws {
        let short = StraightRoute.east(count: 101, intermediateDestinationAt: 50)
        let shortPoints = try short.validate()
        #expect(try EncodedPolyline.decode(short.firstLegPolyline(points: shortPoints)) == Array(shortPoints[0...50]))
        let long = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        let points = try long.validate()
        let leg = long.firstLegPolyline(points: points)
        #expect(leg.utf8.count <= Limits.maximumEncodedPolylineLength)
        let decoded = try EncodedPolyline.decode(leg)
        #expect(decoded.count <= Limits.maximumPolylinePoints)
        #expect(decoded.first == points.first && decoded.last == points.last)
    }
}
