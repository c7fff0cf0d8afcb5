import Access
import Basemap
import Foundation
import Geo
import HTTPTypes
import Hummingbird
import JSON
import Raster
import Render
import Testing
import TripServer
import TripServerTesting

/// The public map data routes (DESIGN §15): tiles drawn by our renderer and the archive's
/// vector tiles, with ETags, 304, transparent or empty answers where there is no data, never
/// an error; TileJSON and the MapLibre style; road names; a budget per client address; 404
/// without a basemap.
@Suite struct TileRoutesTests {
    static let archive = PreviewBasemapTests.tiles
    static let center = LatLng(latitude: 60.1699, longitude: 24.9410)

    static func tile(zoom: Int) -> TileID {
        let world = WebMercator.worldPoint(center, zoom: Double(zoom))
        return TileID(zoom: zoom, x: Int(world.x / 256), y: Int(world.y / 256))
    }

    static func harness(rate: TokenRateLimiter.Rate? = nil) async throws -> (Harness, BasemapLayer) {
        let layer = try BasemapLayer.open(path: archive)
        return (try await Harness(basemap: layer, mapDataRate: rate), layer)
    }

    /// A picture tile is our drawing at 1x and 2x, public and cacheable, with an ETag that
    /// answers 304 without drawing; the style picks day or night.
    @Test func pictureTiles() async throws {
        let (harness, layer) = try await Self.harness()
        let id = Self.tile(zoom: 16)
        try await harness.test { client in
            let day = try await client.expect(.ok, .get, "/tiles/openmaptiles-day/16/\(id.x)/\(id.y).png")
            #expect(day.headers[.contentType] == "image/png")
            #expect(day.headers[.cacheControl]?.hasPrefix("public") == true)
            #expect(day.headers[.accessControlAllowOrigin] == "*")
            // What a fresh basemap draws first (a second drawing may come from kept squares).
            let fresh = try BasemapLayer.open(path: Self.archive)
            let drawn = try #require(fresh.basemap(named: "openmaptiles-day")?.drawTile(id, scale: 1))
            // The tile is of central Helsinki, inside the sample: drawn from its data, with street names.
            #expect(drawn.stats.tiles > 0 && drawn.stats.labels > 0, "\(drawn.stats)")
            #expect(day.body == (try PNGCodec.encode(drawn.image)))
            #expect(layer.source.identity == fresh.source.identity)
            let retina = try await client.expect(.ok, .get, "/tiles/openmaptiles-day/16/\(id.x)/\(id.y)@2x.png")
            #expect(try PNGCodec.decode(retina.body).width == 512)
            let night = try await client.expect(.ok, .get, "/tiles/openmaptiles-night/16/\(id.x)/\(id.y).png")
            #expect(night.body != day.body)
            let etag = try #require(day.headers[.eTag])
            #expect(Set([etag, retina.headers[.eTag], night.headers[.eTag]]).count == 3)
            let again = try await client.send(.get, "/tiles/openmaptiles-day/16/\(id.x)/\(id.y).png", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
        }
    }

    /// Where there is no map, a picture tile is transparent and a vector tile is 204; bad
    /// addresses are 400 and unknown styles 404 naming the styles; never a 500.
    @Test func outsideAndInvalid() async throws {
        let (harness, _) = try await Self.harness()
        try await harness.test { client in
            for path in ["/tiles/openmaptiles-day/12/0/0.png", "/tiles/openmaptiles-day/3/9/1@2x.png"] {
                let reply = try await client.expect(.ok, .get, path)
                let image = try PNGCodec.decode(reply.body)
                #expect(image.width == (path.contains("@2x") ? 512 : 256))
                #expect((0..<image.height).allSatisfy { y in (0..<image.width).allSatisfy { image.pixel(x: $0, y: y).alpha == 0 } })
            }
            try await client.expect(.noContent, .get, "/tiles/10/0/0.mvt")
            try await client.expect(.noContent, .get, "/tiles/3/9/1.mvt")
            for path in [
                "/tiles/openmaptiles-day/a/1/1.png", "/tiles/openmaptiles-day/25/1/1.png", "/tiles/openmaptiles-day/16/1/1@5x.png",
                "/tiles/openmaptiles-day/16/1/1@2y.png", "/tiles/x/1/1.mvt",
            ] {
                let reply = try await client.expect(.badRequest, .get, path)
                #expect(reply.errorStatus == "INVALID_ARGUMENT", "\(path)")
            }
            let unknown = try await client.expect(.notFound, .get, "/tiles/satellite/16/1/1.png")
            #expect(unknown.errorMessage.contains("openmaptiles-day, openmaptiles-night"), "\(unknown.errorMessage)")
        }
    }

    /// Vector tiles are the archive's bytes as stored, gzip'd, with their Content-Encoding.
    @Test func vectorTilesAsStored() async throws {
        let (harness, layer) = try await Self.harness()
        let id = Self.tile(zoom: 14)
        try await harness.test { client in
            let reply = try await client.expect(.ok, .get, "/tiles/14/\(id.x)/\(id.y).mvt")
            let stored = try #require(try layer.source.storedTile(id))
            #expect(reply.body == stored.bytes)
            #expect(reply.headers[.contentEncoding] == stored.contentEncoding)
            #expect(reply.headers[.contentEncoding] == "gzip")
            #expect(reply.headers[.contentType] == "application/vnd.mapbox-vector-tile")
            #expect(try Inflate.decompress(reply.body) == (try layer.source.tileData(id)))
            let etag = try #require(reply.headers[.eTag])
            #expect(try await client.send(.get, "/tiles/14/\(id.x)/\(id.y).mvt", headers: [.ifNoneMatch: etag]).status == .notModified)
        }
    }

    /// TileJSON 3.0 for the vector tiles and each style's pictures, and the MapLibre style, all
    /// with absolute URLs as the client reached the server.
    @Test func documents() async throws {
        let (harness, layer) = try await Self.harness()
        let proxied: HTTPFields = [
            HTTPField.Name("X-Forwarded-Host")!: "maps.example:8443", HTTPField.Name("X-Forwarded-Proto")!: "https",
        ]
        try await harness.test { client in
            let vector = try JSONParser.parse(try await client.send(.get, "/tiles.json", headers: proxied).body)
            #expect(vector["tilejson"]?.text == "3.0.0")
            #expect(vector["tiles"]?.first?.text == "https://maps.example:8443/tiles/{z}/{x}/{y}.mvt")
            #expect(vector["minzoom"]?.value == Double(layer.source.metadata.minZoom))
            #expect(vector["maxzoom"]?.value == Double(layer.source.metadata.maxZoom))
            guard case .array(let layers)? = vector["vector_layers"] else {
                Issue.record("no vector_layers")
                return
            }
            #expect(layers.contains { $0["id"]?.text == "transportation" })
            #expect(vector["attribution"]?.text?.contains("OpenStreetMap") == true)

            let pictures = try JSONParser.parse(try await client.expect(.ok, .get, "/styles/openmaptiles-night/tiles.json").body)
            #expect(pictures["tiles"]?.first?.text?.hasSuffix("/tiles/openmaptiles-night/{z}/{x}/{y}.png") == true)

            let style = try await client.send(.get, "/styles/openmaptiles-day/style.json", headers: proxied)
            #expect(style.status == .ok)
            let document = try JSONParser.parse(style.body)
            #expect(document["sources"]?["openmaptiles"]?["url"]?.text == "https://maps.example:8443/tiles.json")
            #expect(document["version"]?.value == 8)
            let parsed = try MapStyle(data: Data(style.body), name: "served")
            #expect(parsed.sourceLayers == (try MapStyle.builtin(named: "openmaptiles-day").sourceLayers))
            try await client.expect(.notFound, .get, "/styles/satellite/style.json")
        }
    }

    /// The named road nearest a point; `{}` where none is near; 400 without a position.
    @Test func nearestRoad() async throws {
        let (harness, _) = try await Self.harness()
        try await harness.test { client in
            let road = try JSONParser.parse(try await client.expect(.ok, .get, "/map/nearest-road?lat=60.16900&lng=24.94640").body)
            #expect(road["name"]?.text == "Aleksanterinkatu")
            #expect((road["distanceMeters"]?.value ?? 99) < 25)
            #expect(try await client.expect(.ok, .get, "/map/nearest-road?lat=10&lng=10").text == "{}")
            try await client.expect(.badRequest, .get, "/map/nearest-road?lat=60.1")
            try await client.expect(.badRequest, .get, "/map/nearest-road?lat=95&lng=10")
            try await client.expect(.badRequest, .get, "/map/nearest-road?lat=60.1&lng=24.9&radius=5000")
        }
    }

    /// Each address has a budget: past it, 429 RESOURCE_EXHAUSTED with Retry-After.
    @Test func rateLimitPerAddress() async throws {
        let (harness, _) = try await Self.harness(rate: TokenRateLimiter.Rate(requestsPerSecond: 0.01, burst: 3))
        try await harness.test { client in
            for _ in 0..<3 { try await client.expect(.ok, .get, "/tiles.json") }
            let refused = try await client.expect(.tooManyRequests, .get, "/tiles/openmaptiles-day/16/1/1.png")
            #expect(refused.errorStatus == "RESOURCE_EXHAUSTED")
            #expect(refused.headers[.retryAfter].flatMap { Int($0) }.map { $0 >= 1 } == true)
            // The API's routes are not map data: they keep their own (token) limits.
            try await client.expect(.ok, .get, "/healthz")
        }
    }

    /// Without a basemap every map data route is 404 saying so.
    @Test func withoutBasemap() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            for path in [
                "/tiles.json", "/tiles/1/0/0.mvt", "/tiles/openmaptiles-day/1/0/0.png", "/styles/openmaptiles-day/style.json",
                "/map/nearest-road?lat=1&lng=1",
            ] {
                let reply = try await client.expect(.notFound, .get, path)
                #expect(reply.errorMessage.contains("no basemap"), "\(path): \(reply.errorMessage)")
            }
        }
    }
}

extension JSONValue {
    /// The string, if this is one.
    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, if this is one.
    fileprivate var value: Double? {
        if case .number(let value, _) = self { return value }
        return nil
    }

    /// The first element, if this is a non-empty array.
    fileprivate var first: JSONValue? {
        if case .array(let elements) = self { return elements.first }
        return nil
    }
}
