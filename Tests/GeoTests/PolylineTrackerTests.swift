import Foundation
import Geo
import TestKit
import Testing

@Suite struct PolylineTrackerTests {
    /// A winding 10,000-point route near San Francisco, about 10 m between vertices.
    static func windingRoute(count: Int = 10_000) -> [LatLng] {
        (0..<count).map { i in
            let t = Double(i)
            return LatLng(
                latitude: 37.7 + t * 0.00006 + 0.002 * sin(t / 150),
                longitude: -122.4 + t * 0.00008 + 0.002 * cos(t / 97))
        }
    }

    /// A point `meters` north of `p` (a small lateral offset for "GPS noise").
    static func offset(_ p: LatLng, north meters: Double) -> LatLng {
        LatLng(latitude: p.latitude + meters / 111_195.08, longitude: p.longitude)
    }

    /// Following a vehicle along the whole route, the tracker gives the same answers as a
    /// full search at every update, and searches the whole route only once.
    @Test func matchesFullSearch() throws {
        let measure = try #require(PolylineMeasure(Self.windingRoute()))
        var tracker = PolylineTracker(measure: measure)
        var rng = SplitMix64(seed: 3)
        var d = 0.0
        while d < measure.totalMeters {
            let location = Self.offset(measure.point(atDistance: d), north: Double.random(in: -4...4, using: &rng))
            let tracked = tracker.update(location)
            let full = measure.project(location)
            #expect(abs(tracked.distanceAlongMeters - full.distanceAlongMeters) < 1e-6, "at \(d)")
            #expect(tracked.crossTrackMeters == full.crossTrackMeters)
            d += Double.random(in: 0...120, using: &rng)
        }
        #expect(tracker.fullSearchCount == 1)
    }

    /// An out-and-back street: out in the southern lane, back in the northern one, 3 m apart.
    static func outAndBack() -> [LatLng] {
        let out = (0...100).map { LatLng(latitude: 0, longitude: Double($0) * 0.0001) }
        let back = (0...100).map { LatLng(latitude: 0.000027, longitude: 0.01 - Double($0) * 0.0001) }
        return out + back
    }

    /// Coming back along an out-and-back street with GPS noise that puts the vehicle nearer
    /// the outbound lane, a full search snaps to the way out; the tracker stays on the way back.
    @Test func staysOnTheCurrentPass() throws {
        let measure = try #require(PolylineMeasure(Self.outAndBack()))
        var tracker = PolylineTracker(measure: measure)
        let turn = measure.cumulativeMeters[101]
        var result = tracker.update(measure.point(atDistance: turn - 40))
        for d in stride(from: turn - 20, through: turn + 600, by: 20) {
            // 2.2 m south: 0.8 m from the outbound lane once on the way back.
            let location = Self.offset(measure.point(atDistance: d), north: -2.2)
            result = tracker.update(location)
            if d > turn + 20 {
                #expect(abs(result.distanceAlongMeters - d) < 1, "at \(d - turn) m past the turn")
                #expect(measure.project(location).distanceAlongMeters < turn)
            }
        }
        #expect(tracker.fullSearchCount == 1)
        // Without the penalty the tracker is drawn back onto the way out.
        var plain = PolylineTracker(measure: measure, configuration: .init(backtrackPenalty: 0))
        for d in stride(from: turn - 40, through: turn + 600, by: 20) {
            result = plain.update(Self.offset(measure.point(atDistance: d), north: -2.2))
        }
        #expect(result.distanceAlongMeters < turn)
    }

    /// A jump to a place far along the route, out of the window, is found again by a full
    /// search under `.fullSearch`; under `.never` the tracker keeps to its window.
    @Test func reacquirePolicies() throws {
        // A U: 1 km east, 200 m north, 1 km back west. The far leg passes 200 m from the start.
        let east = (0...100).map { LatLng(latitude: 0, longitude: Double($0) * 0.00009) }
        let north = (1...20).map { LatLng(latitude: Double($0) * 0.00009, longitude: 0.009) }
        let west = (0...100).map { LatLng(latitude: 0.0018, longitude: 0.009 - Double($0) * 0.00009) }
        let measure = try #require(PolylineMeasure(east + north + west))
        let jump = LatLng(latitude: 0.0017, longitude: 0.0005)

        var searching = PolylineTracker(measure: measure)
        _ = searching.update(LatLng(latitude: 0, longitude: 0.0001))
        let found = searching.update(jump)
        #expect(found.crossTrackMeters < 12)
        #expect(found.distanceAlongMeters > measure.totalMeters - 100)
        #expect(searching.fullSearchCount == 2)

        var windowed = PolylineTracker(measure: measure, configuration: .init(reacquire: .never))
        _ = windowed.update(LatLng(latitude: 0, longitude: 0.0001))
        let kept = windowed.update(jump)
        #expect(kept.distanceAlongMeters < 100)
        #expect(kept.crossTrackMeters > 150)
        #expect(windowed.fullSearchCount == 1)
    }

    /// A location just beyond the window's far end is still found exactly: the search
    /// follows the line while it gets nearer.
    @Test func followsBeyondTheWindow() throws {
        let measure = try #require(PolylineMeasure(Self.windingRoute(count: 2_000)))
        var tracker = PolylineTracker(
            measure: measure, configuration: .init(behindMeters: 10, aheadMeters: 50, reacquire: .never))
        _ = tracker.update(measure.point(atDistance: 1_000))
        let result = tracker.update(measure.point(atDistance: 1_400))
        #expect(abs(result.distanceAlongMeters - 1_400) < 1e-6)
        #expect(result.crossTrackMeters < 1e-6)
    }

    /// A starting distance replaces the first full search; reset brings it back.
    @Test func startDistanceAndReset() throws {
        let measure = try #require(PolylineMeasure(Self.outAndBack()))
        let start = measure.totalMeters * 0.75
        var tracker = PolylineTracker(measure: measure, startDistance: start)
        #expect(abs((tracker.lastProjection?.distanceAlongMeters ?? 0) - start) < 1e-6)
        let onReturn = tracker.update(measure.point(atDistance: start + 10))
        #expect(abs(onReturn.distanceAlongMeters - (start + 10)) < 1e-6)
        #expect(tracker.fullSearchCount == 0)
        tracker.reset()
        #expect(tracker.lastProjection == nil)
        let location = Self.offset(measure.point(atDistance: start + 10), north: -2.2)
        #expect(tracker.update(location) == measure.project(location))
        #expect(tracker.fullSearchCount == 1)
    }

    /// A one-point route tracks to that point; windowed projection degenerates gracefully.
    @Test func onePointRoute() throws {
        let measure = try #require(PolylineMeasure([LatLng(latitude: 1, longitude: 1)]))
        var tracker = PolylineTracker(measure: measure)
        #expect(tracker.update(LatLng(latitude: 1, longitude: 1.001)).point == LatLng(latitude: 1, longitude: 1))
        #expect(tracker.update(LatLng(latitude: 1, longitude: 1.002)).distanceAlongMeters == 0)
        #expect(measure.project(LatLng(latitude: 2, longitude: 2), near: 0, behind: 10, ahead: 10).segmentIndex == 0)
    }
}
