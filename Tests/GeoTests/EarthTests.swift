import Foundation
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

    /// Short distances (a route's vertices; computed from series below about 60 km) agree
    /// with Vincenty's formula on the sphere, an independent expression that is well
    /// conditioned at every distance, from a centimetre to across the 0.01 rad threshold,
    /// at every latitude and across the antimeridian: within 1e-12 of the distance, plus
    /// the rounding of the inputs.
    @Test func shortDistancesMatchVincenty() {
        func vincenty(_ a: LatLng, _ b: LatLng) -> Double {
            let (phi1, phi2) = (a.latitude * .pi / 180, b.latitude * .pi / 180)
            let dLambda = (b.longitude - a.longitude) * .pi / 180
            let y =
                ((cos(phi2) * sin(dLambda)) * (cos(phi2) * sin(dLambda))
                + pow(cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda), 2)).squareRoot()
            let x = sin(phi1) * sin(phi2) + cos(phi1) * cos(phi2) * cos(dLambda)
            return Earth.radiusMeters * atan2(y, x)
        }
        var generator = SystemRandomNumberGenerator()
        for scale in [1e-7, 1e-5, 1e-3, 0.1, 0.5, 0.57, 0.58, 0.6, 2] {
            for _ in 0..<2_000 {
                let a = LatLng(
                    latitude: Double.random(in: -89.9...89.9, using: &generator),
                    longitude: Double.random(in: -180...180, using: &generator))
                var lng = a.longitude + Double.random(in: -scale...scale, using: &generator)
                if lng > 180 { lng -= 360 } else if lng < -180 { lng += 360 }
                let b = LatLng(
                    latitude: min(90, max(-90, a.latitude + Double.random(in: -scale...scale, using: &generator))),
                    longitude: lng)
                let expected = vincenty(a, b)
                let error = abs(Earth.distance(a, b) - expected)
                // 1e-8 m: the rounding of the inputs' difference in latitude and longitude.
                #expect(error <= 1e-8 + expected * 1e-12, "\(a) → \(b)")
                #expect(Earth.distance(a, b) == Earth.distance(b, a))
            }
        }
        let oneMetreNorth = LatLng(latitude: 37.0 + 1 / (Earth.radiusMeters * .pi / 180), longitude: -122)
        #expect(abs(Earth.distance(LatLng(latitude: 37, longitude: -122), oneMetreNorth) - 1) < 1e-8)
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
