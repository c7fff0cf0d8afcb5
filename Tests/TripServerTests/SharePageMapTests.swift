import Basemap
import Foundation
import Geo
import HTTPTypes
import Hummingbird
import JSON
import Raster
import Render
import StoreVariants
import Testing
import TripServer
import TripServerTesting

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
            // The preview's own query parameters (as openapi.json lists them), and no others.
            let sized = try await client.expect(.ok, .get, "/share/\(rider)/preview.png?width=320&height=200&scale=2&lighting=lowLight")
            let image = try PNGCodec.decode(sized.body)
            #expect(image.width == 640 && image.height == 400)
            let sizedAPI = try await client.expect(
                .ok, .get, "/v1/providers/p/trips/t1/preview.png?width=320&height=200&scale=2&lighting=lowLight", as: harness.consumer("t1"))
            #expect(sized.body == sizedAPI.body)
            let unknown = try await client.expect(.badRequest, .get, "/share/\(rider)/preview.png?colour=red")
            #expect(unknown.errorMessage.contains("colour"))
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
            let page = try await client.expect(.ok, .get, "/share/\(rider)").text
            #expect(page.contains(#"data-tile-styles="""#))
            #expect(page.contains(#"data-map-bounds="""#))
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

/// The share page's own tiles (ShareTileRoutes): the public tiles with their labels clear of
/// the rider's trip, under a key that follows the planned route, for that trip's rider only.
@Suite struct ShareTileRoutesTests {
    static let routeToPickup = [
        LatLng(latitude: 60.1690, longitude: 24.9380), LatLng(latitude: 60.1697, longitude: 24.9400),
        LatLng(latitude: 60.1703, longitude: 24.9415),
    ]

    static func tilePath(_ token: String, key: String, at point: LatLng, dx: Int = 0) -> String {
        let world = WebMercator.worldPoint(point, zoom: 16)
        return "/share/\(token)/tiles/\(key)/openmaptiles-day/16/\(Int(world.x / 256) + dx)/\(Int(world.y / 256)).png"
    }

    static func key(_ client: Client, _ token: String) async throws -> String {
        let reply = try await client.expect(.ok, .get, "/share/\(token)/map.json")
        #expect(reply.headers[.cacheControl] == "no-store")
        guard case .string(let key)? = try JSONParser.parse(reply.body)["key"] else {
            Issue.record("no key in \(reply.text)")
            return ""
        }
        return key
    }

    /// The page names the key; tiles of that key are the rider's to keep, differ from the public
    /// tile where the trip lies on the tile's label block and equal it two blocks away; the key
    /// stays while the car drives along its route and changes with a new route, and a tile asked
    /// for with the old key must not be kept. Stored trips derive the route from the vehicle,
    /// so each store is tried.
    @Test(arguments: TestStoreKind.available) func keyFollowsThePlannedRoute(_ kind: TestStoreKind) async throws {
        let layer = try BasemapLayer.open(path: TileRoutesTests.archive)
        let harness = try await Harness(kind, basemap: layer)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await PreviewBasemapTests.seed(harness, client)
            let segment = #"{"currentRouteSegment": "\#(EncodedPolyline.encode(Self.routeToPickup))"}"#
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: harness.server, body: segment)
            let key = try await Self.key(client, rider)
            #expect(key.hasPrefix("k"))
            #expect(try await client.expect(.ok, .get, "/share/\(rider)").text.contains(#"data-map-key="\#(key)""#))

            let pickup = Self.routeToPickup[2]
            let tile = try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup))
            #expect(tile.headers[.contentType] == "image/png")
            #expect(tile.headers[.cacheControl] == "private, max-age=3600")
            let world = WebMercator.worldPoint(pickup, zoom: 16)
            let publicTile = try await client.expect(.ok, .get, "/tiles/openmaptiles-day/16/\(Int(world.x / 256))/\(Int(world.y / 256)).png")
            let tag = try #require(tile.etag)
            #expect(tag != publicTile.etag && tag.contains(key), "the trip lies on this block: \(tag)")
            let far = try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup, dx: 8))
            let publicFar = try await client.expect(.ok, .get, "/tiles/openmaptiles-day/16/\(Int(world.x / 256) + 8)/\(Int(world.y / 256)).png")
            #expect(far.etag == publicFar.etag && far.body == publicFar.body)
            #expect(try await client.send(.get, Self.tilePath(rider, key: key, at: pickup), headers: [.ifNoneMatch: tag]).status == .notModified)

            // The car drives along its route: the same key.
            let moved = #"{"lastLocation": {"location": {"latitude": 60.1697, "longitude": 24.9400}}}"#
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server, body: moved)
            #expect(try await Self.key(client, rider) == key)
            // A new route: a new key; the old one is drawn around the new route, not to be kept.
            let detour = [Self.routeToPickup[1], LatLng(latitude: 60.1710, longitude: 24.9400), pickup]
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: harness.server,
                body: #"{"currentRouteSegment": "\#(EncodedPolyline.encode(detour))"}"#)
            let newKey = try await Self.key(client, rider)
            #expect(newKey != key)
            let stale = try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup))
            #expect(stale.headers[.cacheControl] == "no-store")
            #expect(stale.etag == (try await client.expect(.ok, .get, Self.tilePath(rider, key: newKey, at: pickup)).etag))
        }
    }

    /// The page carries where the map has data (the archive's bounds) and the corners of the
    /// route to the next stop, which its camera keeps in view while it moves the window over
    /// the data; a new route, new corners. Stored trips derive the route from the vehicle, so
    /// each store is tried.
    @Test(arguments: TestStoreKind.available) func pageCarriesDataBoundsAndRouteCorners(_ kind: TestStoreKind) async throws {
        let layer = try BasemapLayer.open(path: TileRoutesTests.archive)
        let harness = try await Harness(kind, basemap: layer)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await PreviewBasemapTests.seed(harness, client)
            let bounds = try #require(layer.source.metadata.bounds)
            for route in [Self.routeToPickup, [Self.routeToPickup[0], LatLng(latitude: 60.1712, longitude: 24.9371), Self.routeToPickup[2]]] {
                let segment = #"{"currentRouteSegment": "\#(EncodedPolyline.encode(route))"}"#
                try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: harness.server, body: segment)
                let page = try await client.expect(.ok, .get, "/share/\(rider)").text
                #expect(page.contains(#"data-map-bounds="\#(bounds.west),\#(bounds.south),\#(bounds.east),\#(bounds.north)""#))
                let attribute = try #require(page.firstMatch(of: #/data-route="([^"]*)"/#)?.output.1)
                let corners = attribute.split(separator: ";").map { $0.split(separator: ",").compactMap { Double($0) } }
                #expect(corners.count == 2 && corners.allSatisfy { $0.count == 2 }, "\(attribute)")
                guard corners.count == 2, corners.allSatisfy({ $0.count == 2 }) else { return }
                let latitudes = route.map(\.latitude)
                let longitudes = route.map(\.longitude)
                #expect(abs(corners[0][0] - latitudes.min()!) < 1e-6 && abs(corners[0][1] - longitudes.min()!) < 1e-6, "\(attribute)")
                #expect(abs(corners[1][0] - latitudes.max()!) < 1e-6 && abs(corners[1][1] - longitudes.max()!) < 1e-6, "\(attribute)")
            }
        }
    }

    /// The value of the counter `name` in `/metrics` (0 before its first count).
    static func counter(_ client: Client, _ name: String) async throws -> Int {
        let text = try await client.expect(.ok, .get, "/metrics").text
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// The trip's key and obstacles are made once per trip revision: a second tile of the same
    /// label block at the same revision measures nothing and makes no key; a car moving along
    /// its route (a new revision, the same key) makes a key and measures no block again; a new
    /// route measures the block anew. Stored trips derive the route from the vehicle, so each
    /// store is tried.
    @Test(arguments: TestStoreKind.available) func obstaclesMadeOncePerRevision(_ kind: TestStoreKind) async throws {
        let layer = try BasemapLayer.open(path: TileRoutesTests.archive)
        let harness = try await Harness(kind, basemap: layer)
        let rider = try await harness.token(harness.consumer("t1"))
        let keys = "tripshare_share_map_keys_made_total"
        let blocks = "tripshare_share_tile_blocks_measured_total"
        try await harness.test { client in
            try await PreviewBasemapTests.seed(harness, client)
            let segment = #"{"currentRouteSegment": "\#(EncodedPolyline.encode(Self.routeToPickup))"}"#
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: harness.server, body: segment)
            let key = try await Self.key(client, rider)
            let pickup = Self.routeToPickup[2]
            let world = WebMercator.worldPoint(pickup, zoom: 16)
            // Two tiles of one 4×4 label block.
            let column = Int(world.x / 256) / 4 * 4
            try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup, dx: column - Int(world.x / 256)))
            let before = (keys: try await Self.counter(client, keys), blocks: try await Self.counter(client, blocks))
            #expect(before.keys >= 1 && before.blocks >= 1, "the first tile made a key and measured its block")
            try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup, dx: column + 1 - Int(world.x / 256)))
            #expect(try await Self.counter(client, keys) == before.keys, "the same revision: no new key")
            #expect(try await Self.counter(client, blocks) == before.blocks, "the same block: not measured again")

            // The car drives along its route: a new revision with the same key.
            let moved = #"{"lastLocation": {"location": {"latitude": 60.1697, "longitude": 24.9400}}}"#
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server, body: moved)
            let tile = try await client.expect(.ok, .get, Self.tilePath(rider, key: key, at: pickup, dx: column - Int(world.x / 256)))
            #expect(tile.headers[.cacheControl] == "private, max-age=3600", "the key held")
            #expect(try await Self.counter(client, keys) == before.keys + 1)
            #expect(try await Self.counter(client, blocks) == before.blocks, "the same key: the block's obstacles kept")

            // A new route: a new key, the block measured again.
            let detour = [Self.routeToPickup[1], LatLng(latitude: 60.1710, longitude: 24.9400), pickup]
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: harness.server,
                body: #"{"currentRouteSegment": "\#(EncodedPolyline.encode(detour))"}"#)
            let newKey = try await Self.key(client, rider)
            try await client.expect(.ok, .get, Self.tilePath(rider, key: newKey, at: pickup, dx: column - Int(world.x / 256)))
            #expect(try await Self.counter(client, blocks) > before.blocks)
        }
    }

    /// Only the trip's rider opens its tiles: another role's token is refused, a bad token is
    /// unauthenticated, both with no picture; bad addresses and styles are refused by name.
    @Test func strangersGetNothing() async throws {
        let harness = try await Harness(basemap: try BasemapLayer.open(path: TileRoutesTests.archive))
        let rider = try await harness.token(harness.consumer("t1"))
        let driver = try await harness.token(harness.driver("v1"))
        let server = try await harness.token(harness.server)
        try await harness.test { client in
            try await PreviewBasemapTests.seed(harness, client)
            let key = try await Self.key(client, rider)
            let pickup = Self.routeToPickup[2]
            for token in [driver, server] {
                let refused = try await client.send(.get, Self.tilePath(token, key: key, at: pickup))
                #expect(refused.status == .forbidden && refused.headers[.contentType] != "image/png")
                #expect(try await client.send(.get, "/share/\(token)/map.json").status == .forbidden)
            }
            let invalid = try await client.send(.get, Self.tilePath("not-a-token", key: key, at: pickup))
            #expect(invalid.status == .unauthorized && invalid.headers[.contentType] != "image/png")
            try await client.expect(.badRequest, .get, "/share/\(rider)/tiles/\(key)/openmaptiles-day/16/1/1@5x.png")
            try await client.expect(.notFound, .get, "/share/\(rider)/tiles/\(key)/satellite/16/1/1.png")
            let unknownSheet = try await client.send(.get, Self.tilePath(rider, key: key, at: pickup) + "?style=nope")
            #expect(unknownSheet.status == .notFound)
        }
        let bare = try await Harness()
        let token = try await bare.token(bare.consumer("t1"))
        try await bare.test { client in
            try await bare.seed(client)
            #expect(try await client.send(.get, "/share/\(token)/tiles/k1/openmaptiles-day/16/1/1.png").status == .notFound)
        }
    }
}
