import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

@Suite struct JumpFilterTests {
    /// Replays raw locations; returns the accepted trace and the filter.
    private func replay(_ fixes: [JumpFilter.Fix]) -> ([JumpFilter.Fix], JumpFilter) {
        var filter = JumpFilter()
        var accepted: [JumpFilter.Fix] = []
        for fix in fixes {
            let verdict = filter.check(fix)
            if verdict == .accepted || verdict == .relocated { accepted.append(fix) }
        }
        return (accepted, filter)
    }

    /// Every consecutive pair of an accepted trace is physically reachable.
    private func isContinuous(_ trace: [JumpFilter.Fix], _ filter: JumpFilter) -> Bool {
        zip(trace, trace.dropFirst()).allSatisfy { filter.isReachable(from: $0, to: $1) }
    }

    /// jump-demo.json: its one impossible jump (a 1 km-accuracy fix 1.2 km off, 211 m/s
    /// from the next fix) is filtered and the accepted trace is continuous.
    @Test func jumpDemoRawLocations() throws {
        let fixes = try FleetLogs.rawFixes("jump-demo.json")
        #expect(fixes.count == 528)
        let impossible = zip(fixes, fixes.dropFirst()).filter { a, b in
            let dt = b.time.timeIntervalSince(a.time)
            return dt > 0 && Earth.distance(a.location, b.location) / dt > 70
        }
        #expect(impossible.count == 1)
        let (trace, filter) = replay(fixes)
        #expect(isContinuous(trace, filter))
        #expect(filter.statistics.inaccurate == 1)
        #expect(filter.statistics.droppedJumps == 0 && filter.statistics.relocations == 0)
        #expect(trace.count == 527)
        #expect(!trace.contains { $0.location == impossible[0].0.location })
    }

    /// two-trips-bay-area.json: real driving up to 32 m/s; nothing is filtered.
    @Test func twoTripsRawLocations() throws {
        let fixes = try FleetLogs.rawFixes("two-trips-bay-area.json")
        #expect(fixes.count == 528)
        let (trace, filter) = replay(fixes)
        #expect(trace.count == fixes.count)
        #expect(isContinuous(trace, filter))
        #expect(filter.statistics.droppedJumps + filter.statistics.inaccurate + filter.statistics.stale == 0)
    }

    /// A single outlier is dropped when the next fix carries on from where the vehicle was.
    @Test func outlierIsDropped() {
        var filter = JumpFilter()
        let t0 = Date(timeIntervalSince1970: 1_000)
        let home = LatLng(latitude: 37.77, longitude: -122.42)
        let far = TestRoutes.offset(home, north: 5_000)
        #expect(filter.check(.init(location: home, time: t0, accuracyMeters: 5)) == .accepted)
        #expect(filter.check(.init(location: far, time: t0 + 2, accuracyMeters: 5)) == .held)
        #expect(filter.check(.init(location: TestRoutes.offset(home, north: 30), time: t0 + 4, accuracyMeters: 5)) == .accepted)
        #expect(filter.statistics.droppedJumps == 1)
    }

    /// A jump that the following fixes carry on from (a tunnel exit) is accepted after
    /// two confirmations; stale and inaccurate fixes are ignored.
    @Test func confirmedJumpRelocates() {
        var filter = JumpFilter()
        let t0 = Date(timeIntervalSince1970: 1_000)
        let a = LatLng(latitude: 37.77, longitude: -122.42)
        let b = TestRoutes.offset(a, north: 3_000)
        #expect(filter.check(.init(location: a, time: t0, accuracyMeters: 5)) == .accepted)
        #expect(filter.check(.init(location: b, time: t0 + 5, accuracyMeters: 5)) == .held)
        #expect(filter.check(.init(location: TestRoutes.offset(b, north: 50), time: t0 + 7, accuracyMeters: 5)) == .held)
        #expect(filter.check(.init(location: TestRoutes.offset(b, north: 100), time: t0 + 9, accuracyMeters: 5)) == .relocated)
        #expect(filter.check(.init(location: a, time: t0 + 1, accuracyMeters: 5)) == .stale)
        #expect(filter.check(.init(location: a, time: t0 + 20, accuracyMeters: 500)) == .inaccurate)
        #expect(filter.statistics.relocations == 1)
    }

    /// The navigator takes no progress from a jump: a fix 5 km ahead on the route, between
    /// fixes 1 s apart, leaves the remaining distance where it was.
    @Test func navigatorIgnoresJumps() throws {
        let route = StraightRoute.east(count: 101)
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let points = Array(try DriveSimulator(route: route, start: start, interval: 1))
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        for p in points.prefix(50) { _ = navigator.update(p) }
        let before = navigator.navInfo.distanceToFinalDestinationMeters
        var jump = points[50]
        jump.location = points[550].location
        #expect(navigator.update(jump).isEmpty)
        #expect(navigator.navInfo.distanceToFinalDestinationMeters == before)
        _ = navigator.update(points[51])
        #expect(abs(navigator.navInfo.distanceToFinalDestinationMeters - (before - 20)) < 1)
    }
}
