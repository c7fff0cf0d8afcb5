import Basemap
import Foundation
import Geo
import HTTPTypes
import Hummingbird
import Raster
import Render
import Styling

/// The map data routes of DESIGN §15, for any web map library (Leaflet, OpenLayers, MapLibre):
/// - `GET /tiles/{style}/{z}/{x}/{y}.png` and `{y}@2x.png` (up to `@4x`): tiles drawn by our
///   renderer (MapTiles);
/// - `GET /tiles/{z}/{x}/{y}.mvt`: the archive's vector tiles, bytes as stored, with their
///   `Content-Encoding`;
/// - `GET /tiles.json`: TileJSON 3.0 of the vector tiles; `GET /styles/{style}/tiles.json`:
///   TileJSON of a style's PNG tiles; `GET /styles/{style}/style.json`: the MapLibre style
///   reading our vector tiles;
/// - `GET /map/nearest-road?lat=&lng=`: the named road nearest a point (`{}` when none);
/// - `GET /fonts/{fontstack}/{range}.pbf`: glyphs for the labels of the MapLibre styles.
///
/// They carry map data only, so they take no token (a per-address rate limit guards them,
/// AddressRateLimitMiddleware) and any origin may read them. Tiles answer with an `ETag`
/// (304 to `If-None-Match`) and may be cached; where the archive has no data a picture tile
/// is transparent (browsers show the map's background; an empty answer would count as a
/// failed image) and a vector tile is 204 No Content (MapLibre's empty tile), never an
/// error. Without a basemap every route answers 404.
struct TileRoutes {
    /// The drawn tiles and the layer behind them; nil when the server has no basemap.
    let tiles: MapTiles?

    /// How long clients may keep a tile before asking again (with its ETag).
    static let tileCacheControl = "public, max-age=3600"
    /// Documents describing the tiles change only when the server restarts with another archive.
    static let documentCacheControl = "public, max-age=300"

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/tiles.json", use: vectorTileJSON)
        // /tiles/{z}/{x}/{y}.mvt: the router takes path parameters at one position under one
        // name only, and the picture tiles' second part is their style (see vectorTile).
        router.get("/tiles/{style}/{z}/{x}.mvt", use: vectorTile)
        router.get("/tiles/{style}/{z}/{x}/{y}.png", use: pictureTile)
        router.get("/styles/{style}/style.json", use: styleJSON)
        router.get("/styles/{style}/tiles.json", use: pictureTileJSON)
        router.get("/map/nearest-road", use: nearestRoad)
        router.get("/fonts/{fontstack}/{range}.pbf", use: glyphs)
    }

    // MARK: - Tiles

    @Sendable func pictureTile(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        let style = try context.pathParameter("style")
        guard tiles.basemap(style: style) != nil else { throw unknownStyle(style, tiles) }
        let (y, scale) = try Self.row(try context.pathParameter("y"))
        let tile = try Self.address(z: try context.pathParameter("z"), x: try context.pathParameter("x"), y: y)
        guard let tag = tiles.tag(style: style, tile: tile, scale: scale) else {
            return Self.picture(try Self.transparent(scale: scale), etag: nil)
        }
        let etag = "\"\(tag)\""
        if let condition = request.headers[.ifNoneMatch], PreviewRoutes.matches(condition, etag) {
            return Response(status: .notModified, headers: Self.headers(etag: etag, cache: Self.tileCacheControl))
        }
        // Drawing takes tens of milliseconds: off the cooperative threads (RenderQueue.tiles).
        var answer = tiles.keptTile(style: style, tile: tile, scale: scale)
        if answer == nil { answer = try await RenderQueue.tiles.draw { tiles.tile(style: style, tile: tile, scale: scale) } }
        guard case .picture(let png, _)? = answer else { return Self.picture(try Self.transparent(scale: scale), etag: etag) }
        return Self.picture(png, etag: etag)
    }

    /// A PNG tile's answer.
    static func picture(_ png: [UInt8], etag: String?, cache: String = tileCacheControl) -> Response {
        var headers = headers(etag: etag, cache: cache)
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }

    /// A transparent tile at each scale, made once.
    private static let transparentTiles: [Int: [UInt8]] = {
        var tiles: [Int: [UInt8]] = [:]
        for scale in MapTiles.scales {
            let side = 256 * scale
            tiles[scale] = try? PNGCodec.encode(Canvas(width: side, height: side).image)
        }
        return tiles
    }()

    /// The transparent tile at `scale`.
    static func transparent(scale: Int) throws(APIError) -> [UInt8] {
        guard let png = transparentTiles[scale] else { throw APIError(.internal, "cannot make a transparent tile") }
        return png
    }

    @Sendable func vectorTile(_ request: Request, context: TripRequestContext) async throws -> Response {
        let source = try mapTiles().layer.source
        guard source.metadata.format.isVector else {
            throw APIError.notFound("this server's basemap holds \(source.metadata.format) pictures, not vector tiles")
        }
        // The parts of /tiles/{z}/{x}/{y}.mvt under the names the router gives them.
        let tile = try Self.address(
            z: try context.pathParameter("style"), x: try context.pathParameter("z"), y: try context.pathParameter("x"))
        guard tile.isValid else { return Self.noContent() }
        let etag = "\"v\(Self.digest(source.identity, tile.description))\""
        if let condition = request.headers[.ifNoneMatch], PreviewRoutes.matches(condition, etag) {
            return Response(status: .notModified, headers: Self.headers(etag: etag, cache: Self.tileCacheControl))
        }
        let stored: StoredTile?
        do { stored = try source.storedTile(tile) } catch {
            throw APIError(.unavailable, "the basemap archive cannot give tile \(tile): \(error.message)")
        }
        guard let stored else { return Self.noContent(etag: etag) }
        var headers = Self.headers(etag: etag, cache: Self.tileCacheControl)
        headers[.contentType] = "application/vnd.mapbox-vector-tile"
        if let encoding = stored.contentEncoding { headers[.contentEncoding] = encoding }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: stored.bytes)))
    }

    // MARK: - Documents

    @Sendable func vectorTileJSON(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        let metadata = tiles.layer.source.metadata
        guard metadata.format.isVector else {
            throw APIError.notFound(
                "this server's basemap holds \(metadata.format) pictures, not vector tiles: use /styles/{style}/tiles.json")
        }
        let base = Self.baseURL(request)
        var layers = metadata.vectorLayers
        if layers.isEmpty {
            // An archive that does not list its layers: those the styles draw from, without fields.
            var seen = Set<String>()
            layers = tiles.styleNames.compactMap(tiles.basemap(style:)).flatMap(\.style.sourceLayers)
                .filter { seen.insert($0).inserted }.map { VectorLayerInfo(id: $0) }
        }
        var document = Self.tileJSON(tiles, name: metadata.name ?? "tripshare basemap", url: "\(base)/tiles/{z}/{x}/{y}.mvt")
        document["minzoom"] = metadata.minZoom
        document["maxzoom"] = metadata.maxZoom
        document["vector_layers"] = layers.map { layer -> [String: Any] in
            var entry: [String: Any] = ["id": layer.id, "fields": layer.fields]
            if let description = layer.description { entry["description"] = description }
            if let minZoom = layer.minZoom { entry["minzoom"] = minZoom }
            if let maxZoom = layer.maxZoom { entry["maxzoom"] = maxZoom }
            return entry
        }
        return try Self.json(document)
    }

    @Sendable func pictureTileJSON(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        let style = try context.pathParameter("style")
        guard tiles.basemap(style: style) != nil else { throw unknownStyle(style, tiles) }
        var document = Self.tileJSON(
            tiles, name: "tripshare basemap (\(style))", url: "\(Self.baseURL(request))/tiles/\(style)/{z}/{x}/{y}.png")
        document["minzoom"] = 0
        document["maxzoom"] = Self.maximumPictureZoom
        return try Self.json(document)
    }

    @Sendable func styleJSON(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        let style = try context.pathParameter("style")
        guard let basemap = tiles.basemap(style: style) else { throw unknownStyle(style, tiles) }
        guard tiles.layer.source.metadata.format.isVector else {
            throw APIError.notFound("this server's basemap holds pictures, not vector tiles: there is no style for MapLibre to draw")
        }
        let base = Self.baseURL(request)
        let data: Data
        do { data = try basemap.style.published(tileJSON: "\(base)/tiles.json", glyphs: "\(base)/fonts/{fontstack}/{range}.pbf") } catch {
            throw APIError(.internal, error.message)
        }
        return Response(
            status: .ok, headers: Self.documentHeaders(),
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(data))))
    }

    @Sendable func nearestRoad(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        guard let latitude = request.query("lat").flatMap(Double.init), abs(latitude) <= 90,
            let longitude = request.query("lng").flatMap(Double.init), abs(longitude) <= 180
        else { throw APIError.invalid("give lat (-90…90) and lng (-180…180) in degrees") }
        let radius = try request.query("radius").map { text throws(APIError) -> Double in
            guard let value = Double(text), value > 0, value <= 500 else { throw .invalid("radius must be 1 to 500 metres") }
            return value
        }
        // Any style's basemap reads the same archive.
        guard let basemap = tiles.styleNames.first.flatMap(tiles.basemap(style:)) else { return try Self.json([:]) }
        let location = LatLng(latitude: latitude, longitude: longitude)
        guard let road = basemap.nearestRoad(to: location, within: radius ?? 100) else { return try Self.json([:]) }
        return try Self.json(["name": road.name, "distanceMeters": (road.meters * 10).rounded() / 10])
    }

    /// `GET /fonts/{fontstack}/{range}.pbf`: glyphs for the labels of the published styles,
    /// drawn from the fonts our labels use.
    @Sendable func glyphs(_ request: Request, context: TripRequestContext) async throws -> Response {
        let tiles = try mapTiles()
        let range = try context.pathParameter("range")
        let bounds = range.split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, bounds[1] == bounds[0] + 255,
            let pbf = tiles.glyphs(fontStack: try context.pathParameter("fontstack"), first: bounds[0])
        else {
            throw APIError.invalid("a glyph range is 256 code points from a multiple of 256 below 65536, such as 0-255; got '\(range.prefix(24))'")
        }
        var headers = Self.headers(etag: nil, cache: "public, max-age=86400")
        headers[.contentType] = "application/x-protobuf"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: pbf)))
    }

    // MARK: - Helpers

    /// Picture tiles are drawn up to this zoom (Basemap's views end at 24).
    static let maximumPictureZoom = 22

    private func mapTiles() throws(APIError) -> MapTiles {
        guard let tiles else { throw .notFound("this server has no basemap (start it with --basemap FILE)") }
        return tiles
    }

    private func unknownStyle(_ style: String, _ tiles: MapTiles) -> APIError {
        .notFound("no map style '\(style.prefix(64))'; this server draws \(tiles.styleNames.joined(separator: ", "))")
    }

    /// The row of a picture tile's last path part: "12" or "12@2x" (scale 1 to 4).
    static func row(_ text: String) throws(APIError) -> (y: String, scale: Int) {
        guard let at = text.firstIndex(of: "@") else { return (text, 1) }
        let suffix = text[text.index(after: at)...]
        guard suffix.count == 2, suffix.last == "x", let scale = Int(suffix.dropLast()), MapTiles.scales.contains(scale) else {
            throw .invalid("a tile's scale is @2x, @3x or @4x, not '@\(suffix.prefix(8))'")
        }
        return (String(text[..<at]), scale)
    }

    /// A tile address from its path parts: whole numbers, zoom 0…24.
    static func address(z: String, x: String, y: String) throws(APIError) -> TileID {
        guard let zoom = Int(z), let column = Int(x), let row = Int(y) else {
            throw .invalid("a tile address is three whole numbers, z/x/y; got \(z.prefix(12))/\(x.prefix(12))/\(y.prefix(12))")
        }
        guard (0...24).contains(zoom) else { throw .invalid("tile zoom \(zoom) is outside 0…24") }
        return TileID(zoom: zoom, x: column, y: row)
    }

    /// The server's URL as the client reached it (behind a proxy, as the proxy says).
    static func baseURL(_ request: Request) -> String {
        let forwarded = forwardedProto.flatMap { request.headers[$0] }?.lowercased()
        let scheme = forwarded == "https" ? "https" : (request.head.scheme ?? "http")
        let host = forwardedHost.flatMap { request.headers[$0] } ?? request.head.authority ?? "127.0.0.1"
        return "\(scheme)://\(host)"
    }

    private static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")
    private static let forwardedHost = HTTPField.Name("X-Forwarded-Host")

    /// The parts every TileJSON here has.
    private static func tileJSON(_ tiles: MapTiles, name: String, url: String) -> [String: Any] {
        let metadata = tiles.layer.source.metadata
        var document: [String: Any] = [
            "tilejson": "3.0.0", "name": name, "scheme": "xyz", "tiles": [url],
            // The archive's own words (HTML links allowed, as TileJSON permits), else the basemap's text.
            "attribution": metadata.attribution ?? tiles.styleNames.first.flatMap(tiles.basemap(style:))?.attribution ?? "",
        ]
        if let bounds = metadata.bounds {
            document["bounds"] = [bounds.west, bounds.south, bounds.east, bounds.north]
            let center = WebMercator.center(of: bounds)
            document["center"] = [center.longitude, center.latitude, Double(min(max(metadata.maxZoom, 0), 14))]
        }
        return document
    }

    private static func digest(_ parts: String...) -> String {
        var fingerprint = Fingerprint()
        for part in parts { fingerprint.add(part) }
        return fingerprint.hex
    }

    static func headers(etag: String?, cache: String) -> HTTPFields {
        var headers: HTTPFields = [.cacheControl: cache, .accessControlAllowOrigin: "*"]
        if let etag { headers[.eTag] = etag }
        return headers
    }

    private static func documentHeaders() -> HTTPFields {
        var headers = headers(etag: nil, cache: documentCacheControl)
        headers[.contentType] = "application/json; charset=utf-8"
        return headers
    }

    private static func noContent(etag: String? = nil) -> Response {
        Response(status: .noContent, headers: headers(etag: etag, cache: tileCacheControl))
    }

    private static func json(_ object: [String: Any]) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(status: .ok, headers: documentHeaders(), body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(data))))
    }
}
