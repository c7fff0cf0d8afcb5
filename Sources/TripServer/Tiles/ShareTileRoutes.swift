import Access
import Basemap
import Fleet
import HTTPTypes
import Hummingbird
import Render
import Styling
import TripModel

/// The share page's own map tiles (DESIGN §7, §15): the public tiles with their street and
/// place names placed clear of the rider's trip (its route and pins as the page draws them), so
/// that no name lies under the route line.
/// - `GET /share/{token}/map.json?style=`: `{"key": …}`, naming the trip's drawn route and pins
///   with that style sheet now;
/// - `GET /share/{token}/tiles/{key}/{style}/{z}/{x}/{y}.png` (and `@2x`…`@4x`, `?style=` the
///   style sheet): the tile of basemap style `{style}` around the trip.
///
/// The token rides in the path as on the page (a consumer token for one trip; any other is
/// refused as the page is). A tile whose key is the trip's current one never changes and may be
/// kept an hour; one asked for with an older key (the route changed and the page has not yet
/// switched) is drawn around the current route and must not be kept. Which parts of the trip the
/// tiles avoid is Fleet's rule (``Trip/riderMapOverlay``); the pixels they take, Render's.
struct ShareTileRoutes {
    let fleet: Fleet
    let authenticator: Authenticator
    /// The drawn tiles; nil when the server has no basemap.
    let tiles: MapTiles?
    /// The trips' obstacles by revision, shared with the page (its first key).
    let obstacles: TripTileObstacleCache

    /// How long a tile of the current key may be kept: it is the rider's alone.
    static let currentCacheControl = "private, max-age=3600"

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/share/{token}/map.json", use: mapKey)
        router.get("/share/{token}/tiles/{key}/{style}/{z}/{x}/{y}.png", use: tile)
    }

    @Sendable func mapKey(_ request: Request, context: TripRequestContext) async throws -> Response {
        let obstacles = try await tripObstacles(request, context: context)
        var headers = TileRoutes.headers(etag: nil, cache: "no-store")
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"key\":\"\(obstacles.key)\"}")))
    }

    @Sendable func tile(_ request: Request, context: TripRequestContext) async throws -> Response {
        let obstacles = try await tripObstacles(request, context: context)
        guard let tiles else { throw APIError.notFound("this server has no basemap (start it with --basemap FILE)") }
        let style = try context.pathParameter("style")
        guard tiles.basemap(style: style) != nil else {
            throw APIError.notFound("no map style '\(style.prefix(64))'; this server draws \(tiles.styleNames.joined(separator: ", "))")
        }
        let (y, scale) = try TileRoutes.row(try context.pathParameter("y"))
        let tile = try TileRoutes.address(z: try context.pathParameter("z"), x: try context.pathParameter("x"), y: y)
        let current = try context.pathParameter("key") == obstacles.key
        let cache = current ? Self.currentCacheControl : "no-store"
        guard let tag = tiles.tag(style: style, tile: tile, scale: scale, avoiding: obstacles) else {
            return TileRoutes.picture(try TileRoutes.transparent(scale: scale), etag: nil, cache: cache)
        }
        let etag = "\"\(tag)\""
        if let condition = request.headers[.ifNoneMatch], PreviewRoutes.matches(condition, etag) {
            return Response(status: .notModified, headers: TileRoutes.headers(etag: etag, cache: cache))
        }
        var answer = tiles.keptTile(style: style, tile: tile, scale: scale, avoiding: obstacles)
        if answer == nil { answer = try await RenderQueue.tiles.draw { tiles.tile(style: style, tile: tile, scale: scale, avoiding: obstacles) } }
        guard case .picture(let png, _)? = answer else {
            return TileRoutes.picture(try TileRoutes.transparent(scale: scale), etag: etag, cache: cache)
        }
        return TileRoutes.picture(png, etag: etag, cache: cache)
    }

    /// The trip of the path's token, as its map avoids it with the `?style=` style sheet.
    private func tripObstacles(_ request: Request, context: TripRequestContext) async throws -> TripTileObstacles {
        let principal = try await authenticator.principal(token: try context.pathParameter("token"))
        let tripId = try AccessPolicy.sharedTrip(principal, "map")
        try AccessPolicy.checkTripRead(principal, tripId: tripId, view: .journeySharingV1S)
        let trip = try await fleet.revisionedTrip(provider: principal.provider, id: tripId)
        return obstacles.of(trip, sheet: request.query("style"), style: try await Self.styleSheet(request.query("style"), fleet: fleet))
    }

    /// The style sheet `name` (the default one when nil or empty), as previews read it.
    static func styleSheet(_ name: String?, fleet: Fleet) async throws -> StyleService.Style {
        try await fleet.styles.styleForPreview(name.flatMap { $0.isEmpty ? nil : $0 } ?? StyleLibrary.defaultName)
    }
}
