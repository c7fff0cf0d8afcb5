import Foundation
import Geo
import TestKit
import Testing

/// A route kept encoded with checkpoints is read a stretch at a time (issue 30): every stretch
/// must hold the whole line's points and distances bit for bit, and tracking on a stretch must
/// answer what tracking on the whole line answers.
@Suite struct MeasuredPolylineTests {
    /// Lines across checkpoints: one point, a checkpoint's worth and one more, a winding
    /// 5,000-point route, and one with repeated points.
    static let lines: [[LatLng]] = [
        [LatLng(latitude: 52.5, longitude: 13.4)],
        Array(PolylineTrackerTests.windingRoute(count: 65)),
        PolylineTrackerTests.windingRoute(count: 5_000),
        (0..<400).map { LatLng(latitude: 60.17 + Double($0 / 3) * 0.0001, longitude: 24.94 + Double($0 / 3) * 0.00005) },
    ]

    /// The line as the whole decode measures it.
    static func whole(_ points: [LatLng]) throws -> (line: MeasuredPolyline, measure: PolylineMeasure) {
        let decoded = try #require(MeasuredPolyline.decoding(EncodedPolyline.encode(points)))
        #expect(decoded.exact)
        return (decoded.line, decoded.measure)
    }

    @Test func stretchesHoldTheWholeLinesPointsAndDistances() throws {
        for points in Self.lines {
            let (line, measure) = try Self.whole(points)
            #expect(line.wholeMeasure() == measure)
            #expect(line.totalMeters == measure.totalMeters && line.lastPoint == measure.points[measure.points.count - 1])
            var rng = SplitMix64(seed: UInt64(points.count))
            for _ in 0..<50 {
                let from = Double.random(in: -10...(measure.totalMeters + 10), using: &rng)
                let through = from + Double.random(in: 0...300, using: &rng)
                let stretch = line.stretch(from: from, through: through)
                let range = stretch.firstIndex..<(stretch.firstIndex + stretch.points.count)
                #expect(Array(measure.points[range]) == stretch.points)
                #expect(Array(measure.cumulativeMeters[range]).map(\.bitPattern) == stretch.cumulativeMeters.map(\.bitPattern))
                #expect(stretch.cumulativeMeters[0] <= max(0, from))
                #expect(stretch.reachesEnd == (range.upperBound == measure.points.count))
                #expect(stretch.reachesEnd || stretch.totalMeters > through)
            }
        }
    }

    /// A vehicle driving along a long route decodes a stretch once for many updates: the stretch
    /// kept after one update holds the next ones' windows, and reading from it gives the fresh
    /// stretch's points and distances bit for bit. A short line is kept whole.
    @Test func aKeptStretchServesTheNextUpdates() throws {
        let (line, measure) = try Self.whole(PolylineTrackerTests.windingRoute(count: 20_000))
        let kept = KeptStretch()
        var d = 1_000.0
        _ = line.track(PolylineTrackerTests.offset(measure.point(atDistance: d), north: 3), from: d, kept: kept)
        let first = try #require(kept.stretch(of: line))
        #expect(!first.isWholeLine && first.points.count < 2_000)
        let keptBytes = first.points.count * MemoryLayout<Double>.stride
        #expect(keptBytes <= 2 * line.keptStretchBytes, "the cache counts \(line.keptStretchBytes) bytes for \(keptBytes)")
        for _ in 0..<20 {
            let next = d + 25
            _ = line.track(PolylineTrackerTests.offset(measure.point(atDistance: next), north: -2), from: d, kept: kept)
            d = next
            #expect(kept.stretch(of: line) == first, "at \(d) m the kept stretch was decoded again")
        }
        let fresh = line.stretch(from: d, through: d + 10)
        let served = line.stretch(from: d, through: d + 10, kept: kept)
        #expect(served == first)
        let offset = fresh.firstIndex - served.firstIndex
        #expect(Array(served.cumulativeMeters[offset..<(offset + fresh.points.count)]).map(\.bitPattern) == fresh.cumulativeMeters.map(\.bitPattern))
        #expect(Array(served.points[offset..<(offset + fresh.points.count)]) == fresh.points, "the kept stretch's points, decoded again")
        // Far ahead, beyond what is kept: decoded again and kept in its place.
        d += 5_000
        _ = line.track(measure.point(atDistance: d), from: d, kept: kept)
        #expect(kept.stretch(of: line) != first && kept.stretch(of: line, holding: d - 50, through: d + 500) != nil)

        let (short, shortMeasure) = try Self.whole(PolylineTrackerTests.windingRoute(count: 200))
        let shortKept = KeptStretch(for: short, whole: shortMeasure)
        #expect(shortKept.stretch(of: short)?.isWholeLine == true)
        #expect(shortKept.wholeLine(of: short) == shortMeasure)
    }

    /// Along the route with GPS noise, jumping ahead and back, and off the route (where the
    /// whole line must be searched), the answers are the whole line's tracker's.
    @Test func trackingOnAStretchIsTrackingOnTheWholeLine() throws {
        for points in Self.lines {
            let (line, measure) = try Self.whole(points)
            var rng = SplitMix64(seed: 7)
            let kept = KeptStretch()
            var d = 0.0
            while d < measure.totalMeters + 50 {
                let jump = Double.random(in: 0...1, using: &rng)
                let target = jump < 0.05 ? Double.random(in: 0...measure.totalMeters, using: &rng) : d + Double.random(in: -30...150, using: &rng)
                let north = jump > 0.95 ? 400 : Double.random(in: -8...8, using: &rng)
                let location = PolylineTrackerTests.offset(measure.point(atDistance: target), north: north)
                var tracker = PolylineTracker(measure: measure, startDistance: d)
                let expected = tracker.update(location)
                #expect(line.track(location, from: d) == expected, "from \(d) m to \(target) m, \(north) m north")
                #expect(line.track(location, from: d, kept: kept) == expected, "kept, from \(d) m to \(target) m, \(north) m north")
                d += Double.random(in: 0...120, using: &rng)
            }
        }
    }
}
