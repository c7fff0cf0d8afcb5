import Access
import Logging
import TripModel
import TripServer
import TripStore

/// A server without a socket: the application over a store, a transport to its router, and
/// a token authority with a secret of its own, so a test or a fixture replay can call the
/// API as any role.
public struct LocalServer: Sendable {
    /// The application.
    public let app: TripServerApp
    /// Who mints and verifies this server's tokens.
    public let authority: TokenAuthority
    /// Requests to the application's router.
    public let transport: LocalTransport

    /// A server over `store` whose writes, tokens and previews read `clock` (previews
    /// `previewClock` when given); `logger` receives the request logs. Tokens are not
    /// rate-limited (nor their pictures' pixels) unless `rateLimits` says so: a replay calls as
    /// fast as it can. Estimates read the roads under routes from `roadClasses`, when given.
    public init(
        store: any TripStore, clock: WallClock = .system, previewClock: WallClock? = nil,
        logger: Logger = Logger(label: "tripshare-local"), rateLimits: TokenRateLimiter.Policy = .unlimited,
        roadClasses: (any RoadClassSource)? = nil
    ) async throws {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        authority = try await TokenAuthority(hmacSecret: secret, clock: clock)
        app = TripServerApp(
            store: store, authority: authority, clock: clock, previewClock: previewClock,
            rateLimiter: TokenRateLimiter(policy: rateLimits),
            limits: RequestLimits(pixelsPerSecond: rateLimits.driverAndConsumer == nil ? nil : RequestLimits.standard.pixelsPerSecond),
            roadClasses: roadClasses)
        transport = LocalTransport(app: app, logger: logger)
    }

    /// A token for `principal`, valid now.
    public func token(_ principal: Principal) async throws -> String {
        try await authority.mint(principal)
    }
}
