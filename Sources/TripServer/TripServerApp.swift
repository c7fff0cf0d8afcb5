import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import TripModel
import TripStore

/// The HTTP application: routes, authentication, metrics and errors wired over a store and
/// a token authority. `tripshare serve` runs it; tests drive its router directly.
public struct TripServerApp: Sendable {
    /// The store behind the API.
    public let store: any TripStore
    /// Who verifies and mints tokens.
    public let authority: TokenAuthority
    /// Prometheus metrics.
    public let metrics: RequestMetrics
    /// The vehicles' navigators, run inside the store's vehicle writes.
    let navigator: NavigatorHook
    /// Fan-out of the event log to SSE clients.
    let broadcaster: EventBroadcaster
    /// The time previews are drawn at (the pickup ETA badge counts minutes from it); fixture
    /// replays give the store's scripted clock so their previews do not depend on the day.
    let clock: WallClock

    /// Creates the application's parts.
    public init(store: any TripStore, authority: TokenAuthority, metrics: RequestMetrics = RequestMetrics(),
                clock: WallClock = .system) {
        self.clock = clock
        self.store = store
        self.authority = authority
        self.metrics = metrics
        navigator = NavigatorHook(updateDuration: metrics.registry.makeDurationHistogram(
            descriptor: .init(metricName: "tripshare_navigator_update", unitName: "seconds",
                              helpText: "Time the navigator takes per vehicle update"),
            buckets: [.microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
                      .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25)]))
        broadcaster = EventBroadcaster(store: store)
    }

    /// Background services to run beside the HTTP server (`Application(services:)`): the
    /// event streams' heartbeats, and their end on graceful shutdown.
    public var services: [any Service] { [broadcaster] }

    /// The router with every route of the API.
    public func makeRouter() -> Router<TripRequestContext> {
        let router = Router(context: TripRequestContext.self)
        router.add(middleware: MetricsAndErrorsMiddleware(metrics: metrics))
        OperationsRoutes(store: store, metrics: metrics).register(on: router)
        SharePageRoutes(store: store, authority: authority).register(on: router)
        let api = router.group().add(middleware: AuthMiddleware(authority: authority))
            .add(middleware: EventPokeMiddleware(broadcaster: broadcaster))
        VehicleRoutes(store: store, hook: navigator).register(on: api)
        TripRoutes(store: store, hook: navigator).register(on: api)
        StyleRoutes(store: store).register(on: api)
        PreviewRoutes(store: store, metrics: metrics, clock: clock).register(on: api)
        NavigationRoutes(store: store, navigator: navigator, broadcaster: broadcaster).register(on: api)
        EventRoutes(store: store, broadcaster: broadcaster).register(on: api)
        ImageRoutes(store: store, navigator: navigator).register(on: api)
        return router
    }
}
