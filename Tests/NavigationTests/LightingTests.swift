import Foundation
import Geo
import Navigation
import NavigationTesting
import Testing

@Suite struct LightingTests {
    /// A published sunset: where, and when (UTC).
    struct Sunset: CustomStringConvertible, Sendable {
        var place: String
        var location: LatLng
        var utc: String
        var description: String { "\(place) \(utc)" }
    }

    // Published sunset times, converted to UTC:
    // - Lisbon: Observatório Astronómico de Lisboa, solstice table of December 2021
    //   (17/12 17:16:30, 21/12 17:18:14, 23/12 17:19:17, Lisbon time = UTC) and 21 June 2021
    //   (21:04 WEST = 20:04 UTC); the observatory is at 38°42′36″N 9°11′20″W.
    // - Cupertino (San Francisco Bay Area): U.S. Naval Observatory "Rise and Set for the
    //   Sun for 2008", W121°55′ N37°24′, zone 8h west: 1 Jan 17:00, 1 Jun 19:23, 1 Oct 17:50.
    // - Seoul: Korea Astronomy and Space Science Institute, as reported by the press:
    //   31 Dec 2023 17:23, 31 Dec 2020 17:24, 1 Jan 2016 17:24 KST (UTC+9).
    static let sunsets: [Sunset] = {
        let lisbon = LatLng(latitude: 38.71, longitude: -9.1889)
        let cupertino = LatLng(latitude: 37.4, longitude: -121.9167)
        let seoul = LatLng(latitude: 37.5667, longitude: 126.9667)
        return [
            Sunset(place: "Lisbon", location: lisbon, utc: "2021-12-17T17:16:30Z"),
            Sunset(place: "Lisbon", location: lisbon, utc: "2021-12-21T17:18:14Z"),
            Sunset(place: "Lisbon", location: lisbon, utc: "2021-12-23T17:19:17Z"),
            Sunset(place: "Lisbon", location: lisbon, utc: "2021-06-21T20:04:00Z"),
            Sunset(place: "Cupertino", location: cupertino, utc: "2008-01-02T01:00:00Z"),
            Sunset(place: "Cupertino", location: cupertino, utc: "2008-06-02T03:23:00Z"),
            Sunset(place: "Cupertino", location: cupertino, utc: "2008-10-02T01:50:00Z"),
            Sunset(place: "Seoul", location: seoul, utc: "2023-12-31T08:23:00Z"),
            Sunset(place: "Seoul", location: seoul, utc: "2020-12-31T08:24:00Z"),
            Sunset(place: "Seoul", location: seoul, utc: "2016-01-01T08:24:00Z"),
        ]
    }()

    static func date(_ text: String) throws -> Date {
        try #require(try? Date(text, strategy: .iso8601))
    }

    /// The moment the suggested mode turns to lowLight, to the second, searched from two
    /// hours before `around` (normal) to two hours after (lowLight).
    static func flip(at location: LatLng, around: Date) -> Date {
        var low = around.addingTimeInterval(-7_200)
        var high = around.addingTimeInterval(7_200)
        while high.timeIntervalSince(low) > 0.5 {
            let mid = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            if SolarPosition.lightingMode(at: location, time: mid) == .lowLight { high = mid } else { low = mid }
        }
        return high
    }

    /// The lighting mode turns to lowLight within the minute of each published sunset.
    @Test(arguments: sunsets) func flipsAtPublishedSunset(_ sunset: Sunset) throws {
        let published = try Self.date(sunset.utc)
        #expect(SolarPosition.lightingMode(at: sunset.location, time: published.addingTimeInterval(-3_600)) == .normal)
        #expect(SolarPosition.lightingMode(at: sunset.location, time: published.addingTimeInterval(3_600)) == .lowLight)
        let flip = Self.flip(at: sunset.location, around: published)
        #expect(abs(flip.timeIntervalSince(published)) <= 60, "flip at \(flip), published \(published)")
    }

    /// A navigator with a vehicle waiting in Lisbon announces lowLight within a minute of
    /// the published sunset, once.
    @Test func navigatorAnnouncesSunset() throws {
        let published = try Self.date("2021-12-21T17:18:14Z")
        let route = StraightRoute.east(from: LatLng(latitude: 38.71, longitude: -9.1889), count: 11)
        var navigator = Navigator()
        let start = published.addingTimeInterval(-1_800)
        _ = try navigator.setRoute(route, at: start)
        let here = try EncodedPolyline.decode(route.encodedPolyline)[1]
        var changes: [(Date, LightingMode)] = []
        for k in 0..<240 {
            let t = start.addingTimeInterval(Double(k) * 15)
            for case .didChangeSuggestedLightingMode(let mode) in navigator.update(
                location: here, heading: nil, speedMetersPerSecond: 0, accuracyMeters: 5, time: t)
            {
                changes.append((t, mode))
            }
        }
        #expect(changes.map(\.1) == [.normal, .lowLight])
        #expect(abs(changes[1].0.timeIntervalSince(published)) <= 60)
        #expect(navigator.navInfo.suggestedLightingMode == .lowLight)
    }

    /// Noon is bright and midnight dark at the equator on an equinox.
    @Test func noonAndMidnight() throws {
        let equator = LatLng(latitude: 0, longitude: 0)
        let noon = try Self.date("2024-03-20T12:07:00Z")
        #expect(SolarPosition.elevationDegrees(at: equator, time: noon) > 85)
        #expect(SolarPosition.elevationDegrees(at: equator, time: noon.addingTimeInterval(43_200)) < -85)
    }
}
