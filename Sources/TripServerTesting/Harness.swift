import Access
import AccessTesting
import Render
import StoreVariants
import Testing
import TripModel
import TripModelTesting
import TripServer
import TripStore

/// A server over a fresh store with tokens for every role: a ``LocalServer`` with the tests'
/// token secret (``AccessTesting/testTokenSecret``), and no limits but those a test asks for. The
/// tests of the REST API, the fixtures and the gRPC wire's REST side all call the API through it.
package struct Harness: Sendable {
    /// The store the server writes to.
    package let store: any TripStore
    /// The server the requests go to, in process.
    package let local: LocalServer
    /// Who mints and verifies the server's tokens.
    package var authority: TokenAuthority { local.authority }
    /// The application, for what a test reads or runs beside its routes (its services, its router).
    package var app: TripServerApp { local.app }

    /// A server over a fresh store of `kind` (or over `store`) on `clock` whose tokens are
    /// limited by `rateLimiter` (none by default: only the tests of the limit are about it),
    /// and requests by `limits` (no pixel budget by default), drawing previews (and map tiles,
    /// as `tiles` keeps them) over `basemap` when given, each client address limited on the map
    /// data routes to `mapDataRate` (none by default). Its tokens are `authority`'s when given
    /// (a gRPC listener's beside it, say), else signed with `hmacSecret`.
    package init(
        _ kind: TestStoreKind = .memory, store: (any TripStore)? = nil, clock: WallClock = .fixed(ManualClock.testEpoch),
        basemap: BasemapLayer? = nil, rateLimiter: TokenRateLimiter = TokenRateLimiter(policy: .unlimited),
        limits: RequestLimits = RequestLimits(pixelsPerSecond: nil), tiles: MapTiles? = nil, mapDataRate: TokenRateLimiter.Rate? = nil,
        authority: TokenAuthority? = nil, hmacSecret: [UInt8] = testTokenSecret
    ) async throws {
        if let store {
            self.store = store
        } else {
            self.store = try await TestStores.make(kind)
        }
        local = try await LocalServer(
            store: self.store, clock: clock, previewClock: .system,
            options: .init(
                hmacSecret: hmacSecret, authority: authority, basemap: basemap, tiles: tiles, limits: limits, rateLimiter: rateLimiter,
                mapDataRate: mapDataRate))
    }

    /// A token for `principal`, valid now.
    package func token(_ principal: Principal) async throws -> String { try await authority.mint(principal) }
    /// A server token of provider `p`, where the tests' resources live.
    package var server: Principal { Principal(role: .server, provider: "p") }
    /// A server token for every provider (what changing styles takes).
    package var admin: Principal { Principal(role: .server, provider: Principal.allProviders) }
    /// A consumer token for `trip` of `provider`.
    package func consumer(_ trip: String, provider: String = "p") -> Principal { Principal(role: .consumer, provider: provider, tripId: trip) }
    /// A driver token for `vehicle` of `provider`.
    package func driver(_ vehicle: String, provider: String = "p") -> Principal {
        Principal(role: .driver, provider: provider, vehicleId: vehicle)
    }

    /// Runs `body` with a client for the router (no sockets).
    @discardableResult
    package func test<Value: Sendable>(_ body: @Sendable (Client) async throws -> Value) async throws -> Value {
        try await body(Client(transport: local.transport, authority: authority))
    }

    /// Creates vehicle `v1` and trip `t1` assigned to it.
    package func seed(_ client: Client) async throws {
        try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: server, body: Bodies.vehicle)
        try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t1", as: server, body: Bodies.trip(vehicle: "v1"))
    }
}
