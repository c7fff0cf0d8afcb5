import Access
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
public struct TripServerApp: Sendable {
    /// The application layer behind the API.
    public let fleet: Fleet
    /// Who verifies and mints tokens.
    public let authority: TokenAuthority
    /// Every token's way in: verification and its rate limit.
    public let authenticator: Authenticator
    /// Prometheus metrics.
    public let metrics: RequestMetrics
    /// Fan-out of the event log to SSE clients.
    let broadcaster: EventBroadcaster
    /// The time previews are drawn at (the pickup ETA badge counts minutes from it); fixture
    /// replays give their scripted clock so their previews do not depend on the day.
    let previewClock: WallClock
    /// The map drawn under previews (and, through `basemap.underlay(for:)`, the driver's
    /// screen); nil when the server has none.
    public let basemap: BasemapLayer?
    /// Deletes what the event log no longer keeps, when run as one of ``services``.
    let retention: EventRetentionService
    /// What else `/readyz` waits for beside the store (the gRPC listener): each says why it is
    /// not ready, or nil when it is.
    public var readinessChecks: [@Sendable () -> String?] = []

    /// Creates the application's parts over `store`: writes are stamped with `clock`,
    /// previews drawn at `previewClock` (`clock` when nil) over `basemap` when given; each
    /// token's requests are counted by `rateLimiter` (``TokenRateLimiter/Policy/standard``
    /// unless given); the event log keeps what `eventRetention` says.
    public init(
        store: any TripStore, authority: TokenAuthority, metrics: RequestMetrics = RequestMetrics(),
        clock: WallClock = .system, previewClock: WallClock? = nil, basemap: BasemapLayer? = nil,
        rateLimiter: TokenRateLimiter = TokenRateLimiter(), eventRetention: EventRetention = .standard
    ) {
        self.previewClock = previewClock ?? clock
        self.basemap = basemap
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
        fleet = Fleet(store: store, clock: clock, navigatorUpdateObserver: { navigatorUpdate.record($0) })
        broadcaster = EventBroadcaster(fleet: fleet)
        retention = EventRetentionService(fleet: fleet, retention: eventRetention, metrics: metrics)
    }

    /// The store behind the fleet.
    public var store: any TripStore { fleet.store }

    /// Background services to run beside the HTTP server (`Application(services:)`): the
    /// event streams' heartbeats and their end on graceful shutdown, event retention, and on a
    /// store shared with other server processes, hearing of their commits.
    public var services: [any Service] {
        guard let shared = store as? any SharedTripStore else { return [broadcaster, retention] }
        return [broadcaster, retention, OtherServersCommits(store: shared, broadcaster: broadcaster)]
    }

    /// The router with every route of the API.
    public func makeRouter() -> Router<TripRequestContext> {
        let router = Router(context: TripRequestContext.self)
        router.add(middleware: MetricsAndErrorsMiddleware(metrics: metrics))
        OperationsRoutes(fleet: fleet, metrics: metrics, readinessChecks: readinessChecks).register(on: router)
        SharePageRoutes(fleet: fleet, authenticator: authenticator).register(on: router)
        DriverPageRoutes(fleet: fleet, authenticator: authenticator).register(on: router)
        // Every route registered on `api` is authenticated, rate-limited and, where its path
        // has a `{provider}`, bound to the token's provider (AuthMiddleware).
        let api = router.group().add(middleware: AuthMiddleware(authenticator: authenticator))
            .add(middleware: EventPokeMiddleware(broadcaster: broadcaster))
        VehicleRoutes(fleet: fleet).register(on: api)
        TripRoutes(fleet: fleet).register(on: api)
        StyleRoutes(styles: fleet.styles).register(on: api)
        PreviewRoutes(fleet: fleet, metrics: metrics, clock: previewClock, basemap: basemap).register(on: api)
        NavigationRoutes(fleet: fleet, broadcaster: broadcaster).register(on: api)
        EventRoutes(fleet: fleet, broadcaster: broadcaster).register(on: api)
        ImageRoutes(fleet: fleet).register(on: api)
        NavigationUISettingsRoutes(fleet: fleet, broadcaster: broadcaster).register(on: api)
        NavigationScreenRoutes(fleet: fleet, basemap: basemap, metrics: metrics, clock: previewClock).register(on: api)
        return router
    }
}
