import Foundation
import Geo
import Testing

@Suite struct PolylineMeasureTests {
    /// R·π/180: metres in one degree of a great circle.
    static let degree = 111_195.080_233_532_9

    static func line(_ coordinates: [(Double, Double)]) -> PolylineMeasure? {
        PolylineMeasure(coordinates.map { LatLng(latitude: $0.0, longitude: $0.1) })
    }

    /// An empty line or an invalid coordinate has no measure.
    @Test func emptyOrInvalid() {
        #expect(PolylineMeasure([]) == nil)
        #expect(Self.line([(0, 0), (91, 0)]) == nil)
        #expect(Self.line([(0, .nan)]) == nil)
    }

    /// Cumulative distances are haversine lengths summed per vertex.
    @Test func cumulativeDistances() throws {
        let m = try #require(Self.line([(0, 0), (0, 1), (1, 1)]))
        #expect(m.cumulativeMeters.count == 3)
        #expect(m.cumulativeMeters[0] == 0)
        #expect(abs(m.cumulativeMeters[1] - Self.degree) < 1e-6)
        #expect(abs(m.totalMeters - 2 * Self.degree) < 1e-6)
        #expect(m.segmentCount == 2)
    }

    /// A point beside the middle of an equatorial segment projects straight down onto it.
    @Test func projectOntoSegment() throws {
        let m = try #require(Self.line([(0, 0), (0, 1)]))
        let p = m.project(LatLng(latitude: 0.001, longitude: 0.5))
        #expect(p.segmentIndex == 0)
        #expect(abs(p.fraction - 0.5) < 1e-12)
        #expect(abs(p.distanceAlongMeters - Self.degree / 2) < 1e-6)
        #expect(abs(p.crossTrackMeters - Self.degree / 1000) < 1e-6)
        #expect(abs(p.point.latitude) < 1e-15 && abs(p.point.longitude - 0.5) < 1e-12)
        #expect(p.vertexIndex == 0.5)
    }

    /// Before the start and after the end, the ends are nearest, returned exactly.
    @Test func projectBeyondTheEnds() throws {
        let m = try #require(Self.line([(0, 0), (0, 0.01), (0, 0.02)]))
        let before = m.project(LatLng(latitude: 0, longitude: -0.1))
        #expect(before.segmentIndex == 0 && before.fraction == 0 && before.distanceAlongMeters == 0)
        #expect(before.point == LatLng(latitude: 0, longitude: 0))
        #expect(abs(before.crossTrackMeters - Self.degree / 10) < 1e-6)
        let after = m.project(LatLng(latitude: 0.001, longitude: 0.5))
        #expect(after.segmentIndex == 1 && after.fraction == 1)
        #expect(after.point == LatLng(latitude: 0, longitude: 0.02))
        #expect(after.distanceAlongMeters == m.totalMeters)
    }

    /// The nearest of several segments wins: around a corner, the second leg.
    @Test func projectPicksNearestSegment() throws {
        let m = try #require(Self.line([(0, 0), (0, 0.01), (0.01, 0.01)]))
        let p = m.project(LatLng(latitude: 0.005, longitude: 0.011))
        #expect(p.segmentIndex == 1)
        #expect(abs(p.fraction - 0.5) < 1e-9)
        #expect(abs(p.distanceAlongMeters - 1.5 * Self.degree / 100) < 1e-3)
        #expect(abs(p.crossTrackMeters - Self.degree / 1000) < 1e-3)
    }

    /// Against the exact spherical formulas (cross-track asin(sin δ13 · sin(θ13 − θ12)),
    /// along-track acos(cos δ13 / cos δxt), computed independently: 123.3209 m and 416.3427 m)
    /// on a 1 km segment at 60° N, the local projection is within 5 cm.
    @Test func accurateOnRoadSegments() throws {
        let m = try #require(Self.line([(60, 10), (60.005, 10.015)]))
        let p = m.project(LatLng(latitude: 60.003, longitude: 10.005))
        #expect(abs(p.crossTrackMeters - 123.3209) < 0.05)
        #expect(abs(p.distanceAlongMeters - 416.3427) < 0.05)
    }

    /// Duplicate vertices make zero-length segments that are never chosen over real ones and
    /// never divide by zero.
    @Test func duplicateVertices() throws {
        let m = try #require(Self.line([(0, 0), (0, 0), (0, 0.01), (0, 0.01)]))
        #expect(m.cumulativeMeters[0] == m.cumulativeMeters[1])
        let p = m.project(LatLng(latitude: 0.001, longitude: 0.005))
        #expect(p.segmentIndex == 1)
        #expect(abs(p.fraction - 0.5) < 1e-9)
        #expect(m.point(atDistance: 0) == LatLng(latitude: 0, longitude: 0))
        // The last duplicate of a shared distance is reported.
        #expect(m.vertexIndex(atDistance: 0) == 1)
        #expect(m.vertexIndex(atDistance: m.totalMeters) == 3)
    }

    /// A one-point line: everything is that point.
    @Test func onePoint() throws {
        let m = try #require(Self.line([(1, 1)]))
        #expect(m.totalMeters == 0 && m.segmentCount == 0)
        let p = m.project(LatLng(latitude: 1, longitude: 2))
        #expect(p.segmentIndex == 0 && p.fraction == 0 && p.distanceAlongMeters == 0)
        #expect(p.point == LatLng(latitude: 1, longitude: 1))
        #expect(abs(p.crossTrackMeters - Self.degree * cos(.pi / 180)) < 1)
        #expect(m.point(atDistance: 100) == LatLng(latitude: 1, longitude: 1))
        #expect(m.vertexIndex(atDistance: 5) == 0)
        #expect(m.distance(atVertexIndex: 3) == 0)
    }

    /// A line across the antimeridian measures the short way and projects onto it.
    @Test func antimeridian() throws {
        let m = try #require(Self.line([(0, 179.999), (0, -179.999)]))
        #expect(abs(m.totalMeters - Self.degree * 0.002) < 1e-6)
        let p = m.project(LatLng(latitude: 0.0001, longitude: 180))
        #expect(abs(p.fraction - 0.5) < 1e-6)
        #expect(abs(p.crossTrackMeters - Self.degree / 10_000) < 1e-3)
    }

    /// Points at distances are exact at vertices, interpolated between, clamped outside.
    @Test func pointAtDistance() throws {
        let m = try #require(Self.line([(0, 0), (0, 0.01), (0.01, 0.01)]))
        #expect(m.point(atDistance: m.cumulativeMeters[1]) == LatLng(latitude: 0, longitude: 0.01))
        let quarter = m.point(atDistance: m.cumulativeMeters[1] / 4)
        #expect(abs(quarter.longitude - 0.0025) < 1e-12 && quarter.latitude == 0)
        #expect(m.point(atDistance: -5) == LatLng(latitude: 0, longitude: 0))
        #expect(m.point(atDistance: 1e9) == LatLng(latitude: 0.01, longitude: 0.01))
        #expect(m.point(atDistance: .nan) == LatLng(latitude: 0, longitude: 0))
    }

    /// Fractional vertex indices and distances convert both ways.
    @Test func vertexIndexAndDistance() throws {
        let m = try #require(Self.line([(0, 0), (0, 0.01), (0, 0.03)]))
        let along = m.cumulativeMeters[1] + (m.cumulativeMeters[2] - m.cumulativeMeters[1]) / 4
        #expect(abs(m.vertexIndex(atDistance: along) - 1.25) < 1e-12)
        #expect(abs(m.distance(atVertexIndex: 1.25) - along) < 1e-9)
        #expect(m.distance(atVertexIndex: 2) == m.totalMeters)
        #expect(m.distance(atVertexIndex: -1) == 0)
        #expect(m.distance(atVertexIndex: 7.5) == m.totalMeters)
        #expect(m.vertexIndex(atDistance: -1) == 0)
        for d in stride(from: 0.0, through: m.totalMeters, by: 97.3) {
            #expect(abs(m.distance(atVertexIndex: m.vertexIndex(atDistance: d)) - d) < 1e-9)
        }
    }
}
