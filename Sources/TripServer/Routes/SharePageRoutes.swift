import Access
import Fleet
import Foundation
import Geo
import Hummingbird
import JSON
import Navigation
import Render
import Styling
import TripModel
import TripStore

/// `GET /share/{token}` (DESIGN §3, §15): the rider's live page for a trip, given a consumer
/// token in the path, and its script and style sheet under `/share/assets/`. The page is
/// static: its script calls the same `/v1` API a rider's app does, with the token from the
/// path, and draws on the public map tiles, so the page adds no access of its own. The server
/// fills in only what the token cannot tell the script: the trip's provider (the token's own),
/// the vehicle and driver labels (the vehicle's `vehicleLabel` / `driverLabel` attributes,
/// which a consumer may not read itself), the navigator's current step as the trip's event
/// stream would carry it, the map styles the tiles come in, the key of the tiles whose labels
/// keep clear of the trip (ShareTileRoutes), the first view with its basemap styles (so that
/// the first tiles need not wait for the script's reads), where the map has data, and the link
/// preview's picture.
///
/// `GET /share/{token}/preview.png` is the trip's preview for that token (`og:image`): link
/// unfurlers fetch pictures without headers, so the token rides in the path as in the page's.
struct SharePageRoutes {
    let fleet: Fleet
    let authenticator: Authenticator
    let assets: PageAssets
    /// The tiles the page's map shows; nil when the server has no basemap.
    let tiles: MapTiles?
    /// Draws the preview of `og:image`.
    let previews: PreviewRoutes
    /// The trips' tile obstacles (the first tile key), shared with ShareTileRoutes.
    let obstacles: TripTileObstacleCache

    init(fleet: Fleet, authenticator: Authenticator, tiles: MapTiles?, previews: PreviewRoutes, obstacles: TripTileObstacleCache) {
        self.fleet = fleet
        self.authenticator = authenticator
        self.tiles = tiles
        self.previews = previews
        self.obstacles = obstacles
        assets = PageAssets.share
    }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/share/assets/{file}", use: asset)
        router.get("/share/{token}", use: page)
        router.get("/share/{token}/preview.png", use: preview)
    }

    @Sendable func preview(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try await authenticator.principal(token: try context.pathParameter("token"))
        let tripId = try AccessPolicy.sharedTrip(principal, "picture")
        return try await previews.preview(request, principal: principal, provider: principal.provider, tripId: tripId)
    }

    @Sendable func asset(_ request: Request, context: TripRequestContext) async throws -> Response {
        try PageResponse.asset(try context.pathParameter("file"), of: assets, page: "share page")
    }

    @Sendable func page(_ request: Request, context: TripRequestContext) async throws -> Response {
        let token = try context.pathParameter("token")
        let refusals = PageLink.Refusals(
            invalid: ("This share link has expired or is not valid", "Ask whoever sent it for a new link."),
            wrongKind: ("This is not a rider's link", "Share pages open with a consumer token for one trip."))
        let provider: String
        let tripId: String
        let link = try await PageLink.open(token, authenticator: authenticator, refusals: refusals) { try? AccessPolicy.sharedTrip($0, "page") }
        switch link {
        case .refused(let page): return page
        case .opens(let owner, let id): (provider, tripId) = (owner, id)
        }
        let stored: Revisioned<Trip>
        do { stored = try await fleet.revisionedTrip(provider: provider, id: tripId) } catch let error as StatusError where error.code == .notFound {
            return PageResponse.message(.notFound, "This trip cannot be found", "It may have been deleted.")
        }
        let trip = stored.value
        var labels = (vehicle: "–", driver: "–")
        if let vehicleId = trip.vehicleId, let vehicle = try? await fleet.vehicle(provider: provider, id: vehicleId) {
            labels.vehicle = vehicle.attributes.first { $0.key == "vehicleLabel" }?.stringValue ?? vehicleId
            labels.driver = vehicle.attributes.first { $0.key == "driverLabel" }?.stringValue ?? "–"
        }
        // The JSON of a didUpdateNavInfo event, as the page reads it from the event stream.
        let navigation = try? await fleet.riderNavInfo(provider: provider, trip: trip)
        let navigationJSON = navigation.flatMap { try? JSONCoding.encodeText(NavEvent.didUpdateNavInfo($0)) } ?? ""
        // What the page's first map needs, so its tiles start before the script reads anything:
        // the key of the tiles around the trip, the style sheet's basemap styles (day, night),
        // and where the car and the next stop are.
        let sheet = try? await ShareTileRoutes.styleSheet(request.query("style"), fleet: fleet)
        let mapKey = tiles == nil ? "" : sheet.map { obstacles.of(stored, sheet: request.query("style"), style: $0).key } ?? ""
        let basemapStyles = sheet.map { "\($0.coordinator.styleSheet.map.basemapStyle) \($0.coordinator.styleSheet.map.nightBasemapStyle)" } ?? ""
        let rendered = trip.rendered(as: .journeySharingV1S)
        let view = Self.firstView(rendered).map { "\($0.latitude),\($0.longitude)" }.joined(separator: ";")
        // Where the map has data (west,south,east,north), and the corners of the route to the next
        // stop: the camera moves the window over the data only as far as the route stays in view.
        let mapBounds = tiles?.layer.source.metadata.bounds.map { "\($0.west),\($0.south),\($0.east),\($0.north)" } ?? ""
        let route = Self.firstRouteCorners(rendered).map { "\($0.latitude),\($0.longitude)" }.joined(separator: ";")
        let html = assets.page(filling: [
            "ogImage": "\(TileRoutes.baseURL(request))/share/\(token)/preview.png",
            "tileStyles": tiles?.styleNames.joined(separator: " ") ?? "", "navInfo": navigationJSON, "mapKey": mapKey,
            "basemapStyles": basemapStyles, "view": view, "mapBounds": mapBounds, "route": route, "provider": provider, "tripId": tripId,
            "vehicleLabel": labels.vehicle, "driverLabel": labels.driver,
        ])
        return PageResponse.html(.ok, html)
    }

    /// What the page's camera first shows (share.js's framedPoints): the car while the trip
    /// runs, and the next stop (the dropoff once none is left).
    static func firstView(_ trip: Trip) -> [LatLng] {
        var points: [LatLng] = []
        if !trip.tripStatus.isTerminal, let car = trip.lastLocation?.location { points.append(car) }
        if let stop = trip.remainingWaypoints.first?.location?.point ?? trip.dropoffPoint?.point { points.append(stop) }
        return points
    }

    /// The south-west and north-east corners of the route to the next stop while the trip runs
    /// (share.js's `routeCorners` until it reads the trip); none without a route.
    static func firstRouteCorners(_ trip: Trip) -> [LatLng] {
        guard !trip.tripStatus.isTerminal, let encoded = trip.remainingWaypoints.first?.encodedPathToWaypoint,
            let points = try? RouteGeometry.decode(encoded, path: ""), let first = points.first
        else { return [] }
        var (south, west, north, east) = (first.latitude, first.longitude, first.latitude, first.longitude)
        for point in points {
            south = min(south, point.latitude)
            north = max(north, point.latitude)
            west = min(west, point.longitude)
            east = max(east, point.longitude)
        }
        return [LatLng(latitude: south, longitude: west), LatLng(latitude: north, longitude: east)]
    }
}
