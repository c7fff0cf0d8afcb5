import Geo
import Testing

@Suite struct GeoBoundsTests {
    static func ll(_ lat: Double, _ lng: Double) -> LatLng { LatLng(latitude: lat, longitude: lng) }

    /// Points away from the antimeridian give their plain min/max box.
    @Test func fromPoints() throws {
        let b = try #require(GeoBounds([Self.ll(10, 20), Self.ll(-5, 30), Self.ll(2, 25)]))
        #expect(b == GeoBounds(south: -5, west: 20, north: 10, east: 30))
        #expect(!b.crossesAntimeridian)
        #expect(b.longitudeSpan == 10)
        #expect(b.center == Self.ll(2.5, 25))
        #expect(GeoBounds([LatLng]()) == nil)
        #expect(GeoBounds(Self.ll(1, 2)) == GeoBounds(south: 1, west: 2, north: 1, east: 2))
    }

    /// Points on both sides of the antimeridian give a narrow box that crosses it.
    @Test func acrossTheAntimeridian() throws {
        let b = try #require(GeoBounds([Self.ll(-17, 179), Self.ll(-18, -179), Self.ll(-16, 178)]))
        #expect(b == GeoBounds(south: -18, west: 178, north: -16, east: -179))
        #expect(b.crossesAntimeridian)
        #expect(b.longitudeSpan == 3)
        #expect(b.center.longitude == 179.5)
        #expect(b.contains(Self.ll(-17, 180)) && b.contains(Self.ll(-17, -180)))
        #expect(b.contains(Self.ll(-17, -179)) && !b.contains(Self.ll(-17, -178)))
        #expect(!b.contains(Self.ll(-17, 0)) && !b.contains(Self.ll(-15, 179)))
    }

    /// contains includes the edges and treats 180 and -180 as one meridian.
    @Test func containsEdges() {
        let b = GeoBounds(south: 0, west: 170, north: 10, east: 180)
        #expect(b.contains(Self.ll(0, 170)) && b.contains(Self.ll(10, 180)))
        #expect(b.contains(Self.ll(5, -180)))
        #expect(!b.contains(Self.ll(5, 169.9)) && !b.contains(Self.ll(10.1, 175)))
    }

    /// A union takes the narrower way round: plain boxes merge, boxes either side of the
    /// antimeridian join across it, a contained box changes nothing.
    @Test func union() {
        let a = GeoBounds(south: 0, west: 10, north: 1, east: 20)
        #expect(a.union(GeoBounds(south: -1, west: 30, north: 0.5, east: 40)) == GeoBounds(south: -1, west: 10, north: 1, east: 40))
        let east = GeoBounds(south: 0, west: 170, north: 1, east: 175)
        let west = GeoBounds(south: 0, west: -175, north: 1, east: -170)
        #expect(east.union(west) == GeoBounds(south: 0, west: 170, north: 1, east: -170))
        #expect(west.union(east) == GeoBounds(south: 0, west: 170, north: 1, east: -170))
        #expect(a.union(GeoBounds(south: 0.2, west: 12, north: 0.8, east: 15)) == a)
        #expect(a.union(Self.ll(5, 25)) == GeoBounds(south: 0, west: 10, north: 5, east: 25))
        let wide = GeoBounds(south: 0, west: -170, north: 1, east: 170)
        // A box inside the other's gap: the smaller of the two 355° ways round.
        #expect(wide.union(GeoBounds(south: 0, west: 175, north: 1, east: -175)) == GeoBounds(south: 0, west: -170, north: 1, east: -175))
        let full = GeoBounds(south: 0, west: -180, north: 1, east: 180)
        #expect(full.union(a).longitudeSpan == 360 && full.contains(Self.ll(0.5, 0)))
    }

    /// Extending by metres moves every edge out by at least that distance: 1 km is 0.008993°
    /// of latitude (1000 / R in degrees) and, at the equator, the same of longitude.
    @Test func extended() {
        let b = GeoBounds(south: 0, west: 0, north: 0, east: 0).extended(by: 1_000)
        let degrees = 1_000 / Earth.radiusMeters * 180 / .pi
        #expect(abs(b.north - degrees) < 1e-12 && abs(b.south + degrees) < 1e-12)
        #expect(abs(b.east - degrees) < 1e-6 && abs(b.west + degrees) < 1e-6)
        // At 60° a degree of longitude is half as long: the box widens by about twice as much.
        let north = GeoBounds(south: 60, west: 10, north: 60, east: 10).extended(by: 1_000)
        #expect(north.east - 10 >= 2 * degrees)
        #expect(Earth.distance(Self.ll(60, 10), Self.ll(60, north.east)) >= 1_000)
    }

    /// Extending stops at the poles, wraps the antimeridian and may close the circle; a
    /// negative margin shrinks, never past the centre.
    @Test func extendedLimits() {
        #expect(GeoBounds(south: 89.99, west: 0, north: 89.999, east: 1).extended(by: 10_000).north == 90)
        let edge = GeoBounds(south: 0, west: 179.99, north: 0, east: 179.99).extended(by: 10_000)
        #expect(edge.crossesAntimeridian && edge.east < -179.9)
        #expect(GeoBounds(south: 0, west: -179, north: 1, east: 179).extended(by: 500_000).longitudeSpan == 360)
        let shrunk = GeoBounds(south: 0, west: 0, north: 0.001, east: 0.001).extended(by: -10_000)
        #expect(shrunk.south == shrunk.north && shrunk.west == shrunk.east)
    }
}
