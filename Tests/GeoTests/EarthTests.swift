import Geo
import Testing

@Suite struct EarthTests {
    static let paris = LatLng(latitude: 48.8566, longitude: 2.3522)
    static let london = LatLng(latitude: 51.5074, longitude: -0.1278)

    /// Paris–London is 343.557 km on the 6,371,008.8 m sphere (computed independently with
    /// the spherical law of cosines: 343,556.53 m).
    @Test func parisLondon() {
        #expect(abs(Earth.distance(Self.paris, Self.london) - 343_556.53) < 0.05)
        #expect(Earth.distance(Self.london, Self.paris) == Earth.distance(Self.paris, Self.london))
        #expect(Earth.distance(Self.paris, Self.paris) == 0)
    }

    /// One degree of a great circle is R·π/180 = 111,195.08 m, also across the antimeridian.
    @Test func oneDegree() {
        let a = LatLng(latitude: 0, longitude: 179.5)
        let b = LatLng(latitude: 0, longitude: -179.5)
        #expect(abs(Earth.distance(a, b) - 111_195.08) < 0.01)
        #expect(abs(Earth.distance(LatLng(latitude: 10, longitude: 5), LatLng(latitude: 11, longitude: 5)) - 111_195.08) < 0.01)
    }

    /// Antipodes are half the circumference apart.
    @Test func antipodes() {
        let d = Earth.distance(LatLng(latitude: 90, longitude: 0), LatLng(latitude: -90, longitude: 0))
        #expect(abs(d - Earth.radiusMeters * .pi) < 1e-6)
    }

    /// Paris → London starts at 330.02° (north-west); due north, east, south, west are exact
    /// quadrants; coincident points answer 0.
    @Test func initialBearing() {
        #expect(abs(Earth.initialBearing(from: Self.paris, to: Self.london) - 330.021) < 0.001)
        let origin = LatLng(latitude: 0, longitude: 0)
        #expect(abs(Earth.initialBearing(from: origin, to: LatLng(latitude: 1, longitude: 0))) < 1e-9)
        #expect(abs(Earth.initialBearing(from: origin, to: LatLng(latitude: 0, longitude: 1)) - 90) < 1e-9)
        #expect(abs(Earth.initialBearing(from: origin, to: LatLng(latitude: -1, longitude: 0)) - 180) < 1e-9)
        #expect(abs(Earth.initialBearing(from: origin, to: LatLng(latitude: 0, longitude: -1)) - 270) < 1e-9)
        #expect(Earth.initialBearing(from: Self.paris, to: Self.paris) == 0)
    }

    /// Interpolation is exact at the ends, linear between, and takes the short way across the
    /// antimeridian.
    @Test func interpolate() {
        let a = LatLng(latitude: 10, longitude: 20)
        let b = LatLng(latitude: 20, longitude: 40)
        #expect(Earth.interpolate(a, b, fraction: 0) == a)
        #expect(Earth.interpolate(a, b, fraction: 0.5) == LatLng(latitude: 15, longitude: 30))
        let east = LatLng(latitude: 0, longitude: 179)
        let west = LatLng(latitude: 0, longitude: -179)
        #expect(Earth.interpolate(east, west, fraction: 0.5).longitude.magnitude == 180)
        #expect(abs(Earth.interpolate(east, west, fraction: 0.75).longitude - -179.5) < 1e-12)
    }

    /// LatLng validity: ranges and finiteness.
    @Test func latLngValidity() {
        #expect(LatLng(latitude: 90, longitude: -180).isValid)
        #expect(!LatLng(latitude: 90.0001, longitude: 0).isValid)
        #expect(!LatLng(latitude: 0, longitude: 180.5).isValid)
        #expect(!LatLng(latitude: .nan, longitude: 0).isValid)
    }
}
