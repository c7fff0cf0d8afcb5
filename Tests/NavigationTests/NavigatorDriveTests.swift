import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

@Suite struct NavigatorDriveTests {
    /// Driving the whole Portugal–Korea route passes all 422 steps in order, arrives once at
    /// the end, never reroutes, and remaining distance never grows.
    @Test func wholePortugalToKoreaDrive() throws {
        let route = try OSRMImporter.route(from: TestFiles.fixture("osrm/portugal_to_korea.json"))
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        let interval = 4.0
        var seenSteps: [Int] = []
        var arrivals: [NavEvent.WaypointArrival] = []
        var lastRemaining = Double.infinity
        var grew = 0
        var rerouted = false
        var updates = 0
        for point in try DriveSimulator(route: route, start: start, interval: interval) {
            updates += 1
            for event in navigator.update(point) {
                switch event {
                case .didArriveAtWaypoint(let a): arrivals.append(a)
                case .didUpdateNavInfo(let info):
                    if info.navState == .rerouting { rerouted = true }
                    if let step = info.currentStep?.stepNumber, seenSteps.last != step { seenSteps.append(step) }
                    if info.navState == .enroute {
                        if info.distanceToFinalDestinationMeters > lastRemaining { grew += 1 }
                        lastRemaining = info.distanceToFinalDestinationMeters
                    }
                default: break
                }
            }
        }
        #expect(updates > 100_000)
        #expect(!rerouted)
        #expect(grew == 0)
        #expect(seenSteps == seenSteps.sorted(), "steps in order")
        #expect(seenSteps.first == 1 && seenSteps.last == 421)
        // Every step long enough to be seen at this sampling rate was the current step.
        let missed = route.steps.filter { !seenSteps.contains($0.stepNumber) && $0.timeFromPrevStepSeconds > 2 * interval }
        #expect(missed.isEmpty)
        #expect(arrivals.count == 1)
        #expect(arrivals.first?.isFinalDestination == true)
        #expect(navigator.navInfo.navState == .stopped)
        #expect(navigator.jumpFilterStatistics.droppedJumps == 0)
    }

    /// Remaining time and distance events come only when the value moved by the threshold.
    @Test func remainingEventsRespectThresholds() throws {
        let route = StraightRoute.east(count: 301, trafficSpeed: 13)
        for (timeThreshold, distanceThreshold) in [(1.0, 1.0), (30.0, 250.0)] {
            var settings = NavigatorSettings()
            settings.timeUpdateThreshold = timeThreshold
            settings.distanceUpdateThreshold = distanceThreshold
            var navigator = Navigator(settings: settings)
            let start = Date(timeIntervalSince1970: 1_750_000_000)
            var times: [Double] = []
            var distances: [Double] = []
            var updates = 0
            func collect(_ events: [NavEvent]) {
                for event in events {
                    if case .didUpdateRemainingTime(let t) = event { times.append(t.timeToNextDestinationSeconds) }
                    if case .didUpdateRemainingDistance(let d) = event { distances.append(d.distanceToNextDestinationMeters) }
                }
            }
            collect(try navigator.setRoute(route, at: start))
            for point in try DriveSimulator(route: route, start: start, interval: 1) {
                updates += 1
                collect(navigator.update(point))
            }
            #expect(times.count >= 2 && distances.count >= 2)
            #expect(times.count < updates / Int(timeThreshold) + 3)
            // The last event is the arrival's zero, which may come after a smaller step.
            for (a, b) in zip(times, times.dropFirst()).dropLast() { #expect(a - b >= timeThreshold - 1e-9) }
            for (a, b) in zip(distances, distances.dropFirst()).dropLast() { #expect(a - b >= distanceThreshold - 1e-9) }
            #expect(distances.last == 0)
        }
    }

    /// Leaving the route by 200 m reroutes on the third update, a new route restores
    /// `enroute`, and so does coming back onto the old route.
    @Test func offRouteThenNewRouteOrRejoin() throws {
        let route = StraightRoute.east(count: 101)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let points = Array(try DriveSimulator(route: route, start: start, interval: 1))
        for rejoin in [false, true] {
            var navigator = Navigator()
            _ = try navigator.setRoute(route, at: start)
            var states: [NavState] = []
            for p in points.prefix(100) { _ = navigator.update(p) }
            #expect(navigator.navInfo.navState == .enroute)
            // Four updates 200 m north of the route, 5 s apart (a plausible drive away).
            for k in 0..<4 {
                var p = points[105 + 5 * k]
                p.location = TestRoutes.offset(p.location, north: 200)
                p.heading = 0
                _ = navigator.update(p)
                states.append(navigator.navInfo.navState)
            }
            #expect(states == [.enroute, .enroute, .rerouting, .rerouting])
            #expect(navigator.navInfo.currentStep == nil)
            if rejoin {
                _ = navigator.update(points[140])
                #expect(navigator.navInfo.navState == .enroute)
                #expect(navigator.navInfo.currentStep != nil)
            } else {
                let detour = StraightRoute.east(
                    from: TestRoutes.offset(points[115].location, north: 200), count: 30)
                let events = try navigator.setRoute(detour, at: points[116].time)
                #expect(events.first?.name == "navigatorDidChangeRoute")
                #expect(events.compactMap(\.navInfo).first?.routeChanged == true)
                #expect(navigator.navInfo.navState == .enroute)
                var p = points[120]
                p.location = TestRoutes.offset(points[120].location, north: 200)
                _ = navigator.update(p)
                #expect(navigator.navInfo.navState == .enroute)
                #expect(navigator.navInfo.routeChanged == false)
            }
        }
    }

    /// Intermediate and final destinations are each announced once, in order.
    @Test func arrivalsOncePerDestination() throws {
        let route = StraightRoute.east(count: 101, intermediateDestinationAt: 50)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var arrivals: [Int] = []
        for p in try DriveSimulator(route: route, start: start, interval: 1) {
            for case .didArriveAtWaypoint(let a) in navigator.update(p) { arrivals.append(a.destinationIndex) }
            // Stand still at the end: no second arrival.
        }
        let end = route.destinations[1].location
        _ = navigator.update(location: end, heading: nil, speedMetersPerSecond: 0, accuracyMeters: 5, time: start + 10_000)
        #expect(arrivals == [0, 1])
        #expect(navigator.arrivedDestinationIndex == 1)
    }

    /// A navigator saved mid-route and restored carries on exactly as the original.
    @Test func persistedNavigatorResumes() throws {
        let route = StraightRoute.east(count: 101, trafficSpeed: 8, freeFlowSpeed: 10, speedLimitKph: 30)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let points = Array(try DriveSimulator(route: route, start: start, interval: 3))
        var original = Navigator()
        _ = try original.setRoute(route, at: start)
        for p in points.prefix(400) { _ = original.update(p) }
        let saved = try JSONEncoder().encode(original)
        var restored = try JSONDecoder().decode(Navigator.self, from: saved)
        #expect(restored.navInfo == original.navInfo)
        for p in points.dropFirst(400) {
            #expect(restored.update(p) == original.update(p))
        }
        #expect(restored.navInfo.navState == .stopped)
    }
}
