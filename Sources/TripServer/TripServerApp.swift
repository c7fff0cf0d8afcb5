import Access
import Caching
import Fleet
import Hummingbird
import Logging
import Prometheus
import Render
import ServiceLifecycle
import TripModel
import TripStore

/// The HTTP application: routes, authentication, metrics and errors wired over the fleet
/// (the application layer) and a token authority. `tripshare serve` runs it; tests drive its
/// router directly.
package struct TripServerApp: Sendable {
    /// The application layer behind the API.
    package let fleet: Fleet
    /// Who verifies and mints tokens.
    package let authority: TokenAuthority
    /// Every token's way in: verification and its rate limit.
    package let authenticator: Authenticator
    /// Prometheus metrics.
    package let metrics: RequestMetrics
    /// Fan-out of the event log to SSE clients.
    let broadcaster: EventBroadcaster
    /// The time previews are drawn at (the pickup ETA badge counts minutes from it); fixture
    /// replays give their scripted clock so their previews do not depend on the day.
    let previewClock: WallClock
    /// The map drawn under previews (and, through `basemap.underlay(for:)`, the driver's
    /// screen); nil when the server has none.
    package let basemap: BasemapLayer?
    /// Deletes what the event log no longer keeps, when run as one of ``services``.
    let retention: EventRetentionService
    /// What one request may ask of the server.
    let limits: RequestLimits
    /// What each token may have drawn.
    let pixels: PixelBudget
    /// Map tiles drawn from the basemap (DESIGN §15); nil when the server has none.
    package let tiles: MapTiles?
    /// Budgets of the public map data routes, per client address; nil for none.
    let mapDataLimiter: TokenRateLimiter?
    /// The memory the process's caches may hold; the encoded trip views go in its pool.
    package let cacheBudget: CacheBudget

    /// The default budget of each client address on the map data routes: a map page fetches
    /// a few dozen tiles when it opens and as it zooms, far below this.
    package static let defaultMapDataRate = TokenRateLimiter.Rate(requestsPerSecond: 50, burst: 500)
    /// The folder of the Markdown documentation the home page links (`/docs/...`); nil when
    /// the server has none (the page then says where the documentation lives).
    package var docsDirectory: String?
    /// What else `/readyz` waits for beside the store (the gRPC listener): each says why it is
    /// not ready, or nil when it is.
    package var readinessChecks: [@Sendable () -> String?] = []

    /// Creates the application's parts over `store`: writes are stamped with `clock`,
    /// previews drawn at `previewClock` (`clock` when nil) over `basemap` when given; each
    /// token's requests are counted by `rateLimiter` (``TokenRateLimiter/Policy/standard``
    /// unless given); the event log keeps what `eventRetention` says; requests are bounded by
    /// `limits`. Map tiles come from `tiles` (by default drawn from `basemap`, kept in memory),
    /// each client address limited to `mapDataRate` (nil for no limit). Estimates read the
    /// roads under routes from `roadClasses` (DESIGN §5), when given. Encoded trip views are
    /// kept in `cacheBudget`'s pool, with the store's rows and the authority's tokens.
    package init(
        store: any TripStore, authority: TokenAuthority, metrics: RequestMetrics = RequestMetrics(),
        clock: WallClock = .system, previewClock: WallClock? = nil, basemap: BasemapLayer? = nil,
        rateLimiter: TokenRateLimiter = TokenRateLimiter(), eventRetention: EventRetention = .standard,
        limits: RequestLimits = .standard, tiles: MapTiles? = nil,
        mapDataRate: TokenRateLimiter.Rate? = TripServerApp.defaultMapDataRate, roadClasses: (any RoadClassSource)? = nil,
        cacheBudget: CacheBudget = .standard
    ) {
        self.cacheBudget = cacheBudget
        self.limits = limits
        pixels = PixelBudget(pixelsPerSecond: limits.pixelsPerSecond, burst: limits.pixelsPerSecond.map { $0 * 3 })
        self.previewClock = previewClock ?? clock
        self.basemap = basemap
        self.tiles = tiles ?? basemap.map { MapTiles(layer: $0) }
        mapDataLimiter = mapDataRate.map { TokenRateLimiter(policy: .init(driverAndConsumer: $0, server: nil)) }
        self.authority = authority
        authenticator = Authenticator(authority: authority, limiter: rateLimiter)
        self.metrics = metrics
        let navigatorUpdate = metrics.registry.makeDurationHistogram(
            descriptor: .init(
                metricName: "tripshare_navigator_update", unitName: "seconds",
                helpText: "Time the navigator takes per vehicle update"),
            buckets: [
                .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
                .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25),
            ])
        fleet = Fleet(store: store, clock: clock, navigatorUpdateObserver: { navigatorUpdate.record($0) }, roadClasses: roadClasses)
        broadcaster = EventBroadcaster(fleet: fleet)
        retention = EventRetentionService(fleet: fleet, retention: eventRetention, metrics: metrics)
    }

    /// The store behind the fleet.
    package var store: any TripStore { fleet.store }

    /// Background services to run beside the HTTP server (`Application(services:)`): the
    /// event streams' heartbeats and their end on graceful shutdown, event retention, and on a
    /// store shared with other server processes, the fleet's hearing of their commits (which
    /// it announces to the event streams as it does its own).
    package var services: [any Service] {
        [broadcaster, retention] + (fleet.otherServersCommits.map { [$0] } ?? [])
    }

    /// The router with every route of the API.
    package func makeRouter() -> Router<TripRequestContext> {
        let router = Router(context: TripRequestContext.self)
        router.add(middleware: MetricsAndErrorsMiddleware(metrics: metrics, catalog: RouteCatalog.shipped, limits: limits))
        // Unknown query parameters are refused after authentication, as Fleet Engine does: a
        // caller without access learns nothing about a route's parameters.
        let queryParameters = QueryParameterMiddleware(catalog: RouteCatalog.shipped, metrics: metrics)
        let pages = router.group().add(middleware: queryParameters)
        OperationsRoutes(fleet: fleet, metrics: metrics, cachePool: cacheBudget.caches, readinessChecks: readinessChecks).register(on: pages)
        let previews = PreviewRoutes(fleet: fleet, metrics: metrics, clock: previewClock, basemap: basemap, pixels: pixels)
        HomePageRoutes(docsDirectory: docsDirectory).register(on: pages)
        let tripObstacles = TripTileObstacleCache(metrics: metrics)
        SharePageRoutes(fleet: fleet, authenticator: authenticator, tiles: tiles, previews: previews, obstacles: tripObstacles).register(on: pages)
        DriverPageRoutes(fleet: fleet, authenticator: authenticator).register(on: pages)
        LeafletRoutes().register(on: pages)
        // Map data takes no token: each client address has a budget instead.
        let mapData = pages.group().add(middleware: AddressRateLimitMiddleware(limiter: mapDataLimiter))
        TileRoutes(tiles: tiles).register(on: mapData)
        ShareTileRoutes(fleet: fleet, authenticator: authenticator, tiles: tiles, obstacles: tripObstacles).register(on: mapData)
        // Every route registered on `api` is authenticated, rate-limited and, where its path
        // has a `{provider}`, bound to the token's provider (AuthMiddleware).
        // (The API's check runs inside AuthMiddleware, after authentication: one layer less.)
        let api = router.group().add(middleware: AuthMiddleware(authenticator: authenticator, queryParameters: queryParameters))
        VehicleRoutes(fleet: fleet, metrics: metrics).register(on: api)
        TripRoutes(fleet: fleet, metrics: metrics, views: EncodedViewCache(pool: cacheBudget.caches, name: "rest_trip_views")).register(on: api)
        StyleRoutes(styles: fleet.styles).register(on: api)
        previews.register(on: api)
        NavigationRoutes(fleet: fleet).register(on: api)
        EventRoutes(fleet: fleet, broadcaster: broadcaster).register(on: api)
        ImageRoutes(fleet: fleet).register(on: api)
        NavigationUISettingsRoutes(fleet: fleet).register(on: api)
        NavigationScreenRoutes(fleet: fleet, basemap: basemap, metrics: metrics, clock: previewClock, pixels: pixels).register(on: api)
        return router
    }
}
