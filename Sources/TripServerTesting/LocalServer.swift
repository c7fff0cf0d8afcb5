import Access
import Logging
import Render
import TripModel
import TripServer
import TripStore

/// A server without a socket: the application over a store, a transport to its router, and
/// a token authority, so a test or a fixture replay can call the API as any role.
package struct LocalServer: Sendable {
    /// The application.
    package let app: TripServerApp
    /// Who mints and verifies this server's tokens.
    package let authority: TokenAuthority
    /// Requests to the application's router.
    package let transport: LocalTransport

    /// What a test may change about the server beyond its store and clocks.
    package struct Options: Sendable {
        /// The tokens' HMAC secret (nil: a random one, so no other party can mint them).
        package var hmacSecret: [UInt8]?
        /// Who mints and verifies the tokens (nil: an authority of its own over `hmacSecret`),
        /// for a server that shares its tokens with another listener (a gRPC one, say).
        package var authority: TokenAuthority?
        /// The street map previews are drawn over.
        package var basemap: BasemapLayer?
        /// The map tiles served (nil: the basemap's, when there is one).
        package var tiles: MapTiles?
        /// Request limits (nil: no pixel budget unless `rateLimits` limits drivers and consumers).
        package var limits: RequestLimits?
        /// The token rate limiter (nil: one following `rateLimits`).
        package var rateLimiter: TokenRateLimiter?
        /// Requests per client address on the map data routes (nil: none).
        package var mapDataRate: TokenRateLimiter.Rate?

        /// Options; by default the server's own map data rate and nothing else changed.
        package init(
            hmacSecret: [UInt8]? = nil, authority: TokenAuthority? = nil, basemap: BasemapLayer? = nil, tiles: MapTiles? = nil,
            limits: RequestLimits? = nil,
            rateLimiter: TokenRateLimiter? = nil, mapDataRate: TokenRateLimiter.Rate? = TripServerApp.defaultMapDataRate
        ) {
            self.hmacSecret = hmacSecret
            self.authority = authority
            self.basemap = basemap
            self.tiles = tiles
            self.limits = limits
            self.rateLimiter = rateLimiter
            self.mapDataRate = mapDataRate
        }
    }

    /// A server over `store` whose writes, tokens and previews read `clock` (previews
    /// `previewClock` when given); `logger` receives the request logs. Tokens are not
    /// rate-limited (nor their pictures' pixels) unless `rateLimits` says so: a replay calls as
    /// fast as it can. Estimates read the roads under routes from `roadClasses`, when given.
    package init(
        store: any TripStore, clock: WallClock = .system, previewClock: WallClock? = nil,
        logger: Logger = Logger(label: "tripshare-local"), rateLimits: TokenRateLimiter.Policy = .unlimited,
        roadClasses: (any RoadClassSource)? = nil, options: Options = Options()
    ) async throws {
        if let given = options.authority {
            authority = given
        } else {
            authority = try await TokenAuthority(hmacSecret: options.hmacSecret ?? Array(SigningKeys.randomSecret().utf8), clock: clock)
        }
        app = TripServerApp(
            store: store, authority: authority, clock: clock, previewClock: previewClock, basemap: options.basemap,
            rateLimiter: options.rateLimiter ?? TokenRateLimiter(policy: rateLimits),
            limits: options.limits
                ?? RequestLimits(pixelsPerSecond: rateLimits.driverAndConsumer == nil ? nil : RequestLimits.standard.pixelsPerSecond),
            tiles: options.tiles, mapDataRate: options.mapDataRate, roadClasses: roadClasses)
        transport = LocalTransport(app: app, logger: logger)
    }

    /// A token for `principal`, valid now.
    package func token(_ principal: Principal) async throws -> String {
        try await authority.mint(principal)
    }
}
