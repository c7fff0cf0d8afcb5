import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Raster
import Render
import Testing
import TripServer

/// What the live share page draws with (DESIGN §15): the link preview's picture for the token
/// in the path, the style sheet's marker icons, the map styles the page may use, and Debian's
/// Leaflet served from where the package puts it.
@Suite struct SharePageMapTests {
    /// og:image is the trip's preview for the page's own token, an absolute URL; the picture
    /// opens with that token alone (no header), and only a rider's token of a trip opens it.
    @Test func linkPreviewPicture() async throws {
        let layer = try BasemapLayer.open(path: TileRoutesTests.archive)
        let harness = try await Harness(basemap: layer)
        let rider = try await harness.token(harness.consumer("t1"))
        let driver = try await harness.token(harness.driver("v1"))
        try await harness.test { client in
            try await PreviewBasemapTests.seed(harness, client)
            let page = try await client.send(.get, "/share/\(rider)", headers: [HTTPField.Name("X-Forwarded-Host")!: "rides.example"])
            #expect(page.text.contains(#"<meta property="og:image" content="http://rides.example/share/\#(rider)/preview.png">"#))
            #expect(page.text.contains(#"data-tile-styles="openmaptiles-day openmaptiles-night""#))
            let picture = try await client.expect(.ok, .get, "/share/\(rider)/preview.png")
            #expect(picture.headers[.contentType] == "image/png")
            let api = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1/preview.png", as: harness.consumer("t1"))
            #expect(picture.body == api.body)
            #expect(try await client.send(.get, "/share/\(driver)/preview.png").status == .forbidden)
            #expect(try await client.send(.get, "/share/not-a-token/preview.png").status == .unauthorized)
        }
    }

    /// A server without a basemap tells the page it has no map styles.
    @Test func noTilesWithoutBasemap() async throws {
        let harness = try await Harness()
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await harness.seed(client)
            #expect(try await client.expect(.ok, .get, "/share/\(rider)").text.contains(#"data-tile-styles="""#))
        }
    }

    /// Marker icons are the style sheet's, drawn alone at the scale asked: the car 18×36 at
    /// scale 1, twice that at 2; any token reads them, none is refused; bad scales and types
    /// are refused by name; the ETag answers 304.
    @Test func markerIcons() async throws {
        let harness = try await Harness()
        let rider = harness.consumer("t1")
        try await harness.test { client in
            let icon = try await client.expect(.ok, .get, "/v1/styles/default/markers/tripVehicle/icon.png?scale=2", as: rider)
            #expect(icon.headers[.contentType] == "image/png")
            let image = try PNGCodec.decode(icon.body)
            #expect(image.width == 36 && image.height == 72)
            #expect(image.pixel(x: 0, y: 0).alpha == 0, "transparent around the car")
            #expect(image.pixel(x: 18, y: 36).alpha == 255, "the car's body")
            let small = try PNGCodec.decode(try await client.expect(.ok, .get, "/v1/styles/default/markers/tripVehicle/icon.png", as: rider).body)
            #expect(small.width == 18 && small.height == 36)
            let pin = try PNGCodec.decode(try await client.expect(.ok, .get, "/v1/styles/night/markers/tripPickupPoint/icon.png", as: rider).body)
            #expect(pin.width > 0 && pin.height > pin.width)
            try await client.expect(.unauthorized, .get, "/v1/styles/default/markers/tripVehicle/icon.png")
            let badScale = try await client.expect(.badRequest, .get, "/v1/styles/default/markers/tripVehicle/icon.png?scale=9", as: rider)
            #expect(badScale.errorMessage.contains("scale"))
            try await client.expect(.notFound, .get, "/v1/styles/default/markers/balloon/icon.png", as: rider)
            try await client.expect(.notFound, .get, "/v1/styles/nope/markers/tripVehicle/icon.png", as: rider)
            let etag = try #require(icon.headers[.eTag])
            let again = try await client.send(
                .get, "/v1/styles/default/markers/tripVehicle/icon.png?scale=2", as: rider, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    /// Leaflet comes from Debian's package: the minified script (gzip'd when the client takes
    /// it), the style sheet and its images; nothing else of the folder.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.min.js")))
    func leafletFromDebian() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            let script = try await client.expect(.ok, .get, "/assets/leaflet/leaflet.js")
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/javascript/leaflet/leaflet.min.js"))))
            let zipped = try await client.send(.get, "/assets/leaflet/leaflet.js", headers: [.acceptEncoding: "gzip, br"])
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.body.count < script.body.count / 2)
            try await client.expect(.ok, .get, "/assets/leaflet/leaflet.css")
            try await client.expect(.ok, .get, "/assets/leaflet/images/layers.png")
            try await client.expect(.notFound, .get, "/assets/leaflet/leaflet.js.map")
            try await client.expect(.notFound, .get, "/assets/leaflet/images/..%2Fleaflet.js")
        }
    }
}
