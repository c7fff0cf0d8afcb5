import Geo
import Testing

@Suite struct PolylineSliceTests {
    /// Four vertices along the equator, 0.01° (1,111.95 m) apart.
    static let points = (0...3).map { LatLng(latitude: 0, longitude: Double($0) * 0.01) }
    static let step = 1_111.950_802_335_329

    /// A slice has the exact interpolated ends and every vertex between.
    @Test func sliceInterpolatesEnds() throws {
        let m = try #require(PolylineMeasure(Self.points))
        let s = m.slice(from: 500, to: 2_500)
        #expect(s.count == 4)
        #expect(abs(s[0].longitude - 500 / Self.step * 0.01) < 1e-12)
        #expect(s[1] == Self.points[1] && s[2] == Self.points[2])
        #expect(abs(s[3].longitude - 2_500 / Self.step * 0.01) < 1e-12)
    }

    /// Ends exactly on vertices give those vertices once, not twice.
    @Test func sliceOnVertices() throws {
        let m = try #require(PolylineMeasure(Self.points))
        #expect(m.slice(from: m.cumulativeMeters[1], to: m.cumulativeMeters[2]) == [Self.points[1], Self.points[2]])
        #expect(m.slice(from: 0, to: m.totalMeters) == Self.points)
    }

    /// Distances outside the line are clamped; an empty or inverted range gives one point;
    /// slice(from:) runs to the end.
    @Test func clampedAndDegenerate() throws {
        let m = try #require(PolylineMeasure(Self.points))
        #expect(m.slice(from: -100, to: 1e9) == Self.points)
        #expect(m.slice(from: 700, to: 700).count == 1)
        #expect(m.slice(from: 700, to: 200) == [m.point(atDistance: 700)])
        #expect(m.slice(from: m.totalMeters, to: m.totalMeters + 10) == [Self.points[3]])
        let tail = m.slice(from: 2_000)
        #expect(tail.count == 3 && tail.last == Self.points[3])
        #expect(abs(tail[0].longitude - 2_000 / Self.step * 0.01) < 1e-12)
    }

    /// Zero-length lines (one point, or all duplicates) slice to their single point.
    @Test func zeroLengthLines() throws {
        let one = try #require(PolylineMeasure([LatLng(latitude: 5, longitude: 5)]))
        #expect(one.slice(from: 0, to: 10) == [LatLng(latitude: 5, longitude: 5)])
        let same = try #require(PolylineMeasure(Array(repeating: LatLng(latitude: 5, longitude: 5), count: 3)))
        #expect(same.slice(from: 0) == [LatLng(latitude: 5, longitude: 5)])
    }

    /// Each output vertex knows its position on the source line and its source segment.
    @Test func indexMap() throws {
        let m = try #require(PolylineMeasure(Self.points))
        let s = m.sliceWithIndexMap(from: 500, to: 2_500)
        #expect(s.points == m.slice(from: 500, to: 2_500))
        #expect(s.sourceVertexPositions.count == 4)
        #expect(abs(s.sourceVertexPositions[0] - 500 / Self.step) < 1e-12)
        #expect(s.sourceVertexPositions[1] == 1 && s.sourceVertexPositions[2] == 2)
        #expect(abs(s.sourceVertexPositions[3] - 2_500 / Self.step) < 1e-12)
        #expect(s.sourceSegmentIndices(sourceSegmentCount: m.segmentCount) == [0, 1, 2, 2])
        let whole = m.sliceWithIndexMap(from: 0, to: m.totalMeters)
        #expect(whole.sourceVertexPositions == [0, 1, 2, 3])
        #expect(whole.sourceSegmentIndices(sourceSegmentCount: 3) == [0, 1, 2, 2])
    }

    /// Traffic intervals on the source (vertex index ranges) carry over to the trimmed route:
    /// clamped at the cut, shifted by the vertices cut away, dropped when outside.
    @Test func trafficIntervalsCarryOver() throws {
        let m = try #require(PolylineMeasure(Self.points))
        // Trim at 500 m: the slice's vertices are [cut, v1, v2, v3].
        let s = m.sliceWithIndexMap(from: 500, to: m.totalMeters)
        #expect(s.vertexRange(forSourceVertices: 0, through: 2) == 0...2)
        #expect(s.vertexRange(forSourceVertices: 2, through: 3) == 2...3)
        #expect(s.vertexRange(forSourceVertices: 1, through: 3) == 1...3)
        // Trim at 1.5 segments: vertex 1 and everything before is gone.
        let later = m.sliceWithIndexMap(from: 1.5 * Self.step, to: m.totalMeters)
        #expect(later.vertexRange(forSourceVertices: 0, through: 1) == nil)
        #expect(later.vertexRange(forSourceVertices: 0, through: 2) == 0...1)
        // A slice that stops short of the interval, and a backwards interval.
        let head = m.sliceWithIndexMap(from: 0, to: 1.5 * Self.step)
        #expect(head.vertexRange(forSourceVertices: 2, through: 3) == nil)
        #expect(head.vertexRange(forSourceVertices: 1, through: 3) == 1...2)
        #expect(head.vertexRange(forSourceVertices: 2, through: 1) == nil)
    }
}
