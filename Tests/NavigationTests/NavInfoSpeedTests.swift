import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

/// NavInfo carries what a speedometer shows: the vehicle's speed and the limit where it is.
@Suite struct NavInfoSpeedTests {
    /// NavInfo carries the vehicle's speed and the limit where it is; a route without limits
    /// says "unknown" (nil, left out of the JSON), never a made-up number.
    @Test func navInfoCarriesSpeedAndLimit() throws {
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        for limit in [50.0, nil] {
            let route = StraightRoute.east(count: 101, trafficSpeed: 12, speedLimitKph: limit)
            var navigator = Navigator()
            _ = try navigator.setRoute(route, at: start)
            for point in try DriveSimulator(route: route, start: start).prefix(30) { _ = navigator.update(point) }
            let info = navigator.navInfo
            #expect(abs((info.currentSpeedMetersPerSecond ?? 0) - 12) < 0.01)
            #expect(info.currentSpeedLimitKph == limit)
            let json = String(decoding: try JSONEncoder().encode(info), as: UTF8.self)
            #expect(json.contains("currentSpeedLimitKph") == (limit != nil))
            #expect(try JSONDecoder().decode(NavInfo.self, from: Data(json.utf8)) == info)
        }
    }

    /// A change of speed limit along the route is news (a new NavInfo), the limit of the
    /// new stretch; off the route the limit is unknown.
    @Test func limitChangesAreNews() throws {
        var route = StraightRoute.east(count: 101, trafficSpeed: 12)
        route.speedLimits = [
            SpeedLimitSpan(startPolylinePointIndex: 0, endPolylinePointIndex: 50, speedLimitKph: 50),
            SpeedLimitSpan(startPolylinePointIndex: 50, endPolylinePointIndex: 100, speedLimitKph: 30),
        ]
        let start = Date(timeIntervalSince1970: 1_760_000_000)
        var navigator = Navigator()
        _ = try navigator.setRoute(route, at: start)
        var limits: [Double?] = []
        let points = Array(try DriveSimulator(route: route, start: start))
        for point in points.prefix(600) {
            for case .didUpdateNavInfo(let info) in navigator.update(point) where limits.last != info.currentSpeedLimitKph {
                limits.append(info.currentSpeedLimitKph)
            }
        }
        #expect(limits == [50, 30])
        for k in 0..<4 {
            var p = points[600 + 5 * k]
            p.location = TestRoutes.offset(p.location, north: 300)
            _ = navigator.update(p)
        }
        #expect(navigator.navInfo.navState == .rerouting)
        #expect(navigator.navInfo.currentSpeedLimitKph == nil)
    }
}
