import Foundation
import Hummingbird
import JSON
import Navigation
import Raster
import Render
import Styling
import Testing
import TripModel
import TripServer
import TripServerTesting

/// preview.png over the server's basemap (DESIGN §7, §13): drawn by default, left out with
/// `basemap=off`, and covered by the ETag (the archive and the style drawn).
@Suite struct PreviewBasemapTests {
    static let path = "/v1/providers/p/trips/t1/preview.png"
    static let tiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data-samples/helsinki.pmtiles").path
    /// The seeded trip, moved under the shipped tiles (central Helsinki).
    static let vehicle = #"{"lastLocation": {"location": {"latitude": 60.1690, "longitude": 24.9380}}}"#
    static let trip = """
        {"pickupPoint": {"point": {"latitude": 60.1703, "longitude": 24.9415}},
         "dropoffPoint": {"point": {"latitude": 60.1691, "longitude": 24.9510}}}
        """

    static func seed(_ harness: Harness, _ client: Client) async throws {
        try await harness.seed(client)
        try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server, body: vehicle)
        try await client.expect(
            .ok, .put, "/v1/providers/p/trips/t1?updateMask=pickupPoint,dropoffPoint", as: harness.server,
            body: trip)
    }

    /// The preview is drawn over the basemap; `basemap=off` gives exactly the plain preview,
    /// under another ETag; other values are a 400 naming the parameter.
    @Test func basemapOnAndOff() async throws {
        let layer = try BasemapLayer.open(path: Self.tiles)
        let harness = try await Harness(basemap: layer)
        try await harness.test { client in
            try await Self.seed(harness, client)
            let rider = harness.consumer("t1")
            let trip = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider)
            let view = try JSONCoding.decode(Trip.self, from: trip.body, root: "trip")
            let style = try StyleLibrary.bundled().defaultStyle
            let mapped = try await client.expect(.ok, .get, Self.path, as: rider)
            let plain = try await client.expect(.ok, .get, Self.path + "?basemap=off", as: rider)
            #expect(try await client.expect(.ok, .get, Self.path + "?basemap=on", as: rider).etag == mapped.etag)
            #expect(mapped.etag != plain.etag)
            let now = WallClock.system.now
            #expect(try TripPreview(trip: view, style: style, options: PreviewOptions(), now: now, basemap: layer).png() == mapped.body)
            #expect(try TripPreview(trip: view, style: style, options: PreviewOptions(), now: now).png() == plain.body)
            #expect(mapped.body != plain.body)

            let bad = try await client.expect(.badRequest, .get, Self.path + "?basemap=maybe", as: rider)
            #expect(bad.errorMessage.hasPrefix("basemap:"), "the error names the parameter: \(bad.errorMessage)")
        }
    }

    /// The ETag changes with the basemap: a server without one, another style for every
    /// picture, and a style sheet that names another basemap style.
    @Test func etagCoversTheBasemap() async throws {
        let builtins = try BasemapLayer.open(path: Self.tiles)
        let fixedNight = try BasemapLayer.open(path: Self.tiles, style: "openmaptiles-night")
        var tags: [String] = []
        for layer in [nil, builtins, fixedNight] {
            let harness = try await Harness(basemap: layer)
            let tag = try await harness.test { client in
                try await Self.seed(harness, client)
                return try #require(try await client.expect(.ok, .get, Self.path, as: harness.consumer("t1")).etag)
            }
            tags.append(tag)
        }
        #expect(Set(tags).count == 3, "\(tags)")

        let harness = try await Harness(basemap: builtins)
        try await harness.test { client in
            try await Self.seed(harness, client)
            let rider = harness.consumer("t1")
            let day = try await client.expect(.ok, .get, Self.path, as: rider)
            try await client.expect(
                .ok, .put, "/v1/styles/default", as: harness.admin,
                body: #"{"map": {"basemapStyle": "openmaptiles-night"}}"#)
            let night = try await client.send(.get, Self.path, as: rider, headers: [.ifNoneMatch: day.etag ?? ""])
            #expect(night.status == .ok && night.etag != day.etag && night.body != day.body)
            let refused = try await client.expect(
                .badRequest, .put, "/v1/styles/default", as: harness.admin,
                body: #"{"map": {"basemapStyle": "bright"}}"#)
            let message = refused.errorMessage
            #expect(message.contains("map.basemapStyle") && message.contains("openmaptiles-day"), "\(message)")
        }
    }

    /// A file that is not a tile archive cannot be a basemap; the error names the file and
    /// what it is (serve prints it and does not start).
    @Test func notATileArchiveIsRefused() throws {
        let readme = URL(fileURLWithPath: Self.tiles).deletingLastPathComponent().appendingPathComponent("ATTRIBUTION.md").path
        #expect {
            _ = try BasemapLayer.open(path: readme)
        } throws: { error in
            let message = "\(error)"
            return message.contains("ATTRIBUTION.md") && message.contains("not a tile archive")
        }
        #expect(throws: (any Error).self) { _ = try BasemapLayer.open(path: Self.tiles, style: "no-such-style.json") }
    }
}
