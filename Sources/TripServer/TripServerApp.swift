import Hummingbird
import Logging
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
    }

    /// The router with every route of the API.
    public func makeRouter() -> Router<TripRequestContext> {
        let router = Router(context: TripRequestContext.self)
        router.add(middleware: MetricsAndErrorsMiddleware(metrics: metrics))
        OperationsRoutes(store: store, metrics: metrics).register(on: router)
        SharePageRoutes(store: store, authority: authority).register(on: router)
        let api = router.group().add(middleware: AuthMiddleware(authority: authority))
        VehicleRoutes(store: store).register(on: api)
        TripRoutes(store: store).register(on: api)
        StyleRoutes(store: store).register(on: api)
        PreviewRoutes(store: store, metrics: metrics, clock: clock).register(on: api)
        return router
    }
}
