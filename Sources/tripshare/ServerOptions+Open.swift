import Foundation
import Render
import SQLiteStore
import TripServer

/// The server `serve` and `demo` run: the API over the SQLite store of the data directory,
/// with the signing keys the options resolve to.
struct OpenedServer {
    let app: TripServerApp
    let authority: TokenAuthority
    let keys: SigningKeys
}

extension ServerOptions {
    /// Creates the data directory if needed, resolves the keys (creating a secret when none
    /// is configured), opens the store and applies its migrations; tokens are verified with
    /// `security`'s clock skew and limited to its rates; previews draw `basemap`.
    func openServer(_ security: SecurityOptions, basemap: BasemapLayer? = nil) async throws -> OpenedServer {
        try FileManager.default.createDirectory(atPath: resolvedDataDirectory, withIntermediateDirectories: true)
        let keys = try SigningKeys.resolve(environment: Self.environment, dataDirectory: resolvedDataDirectory)
        let authority = try await TokenAuthority(hmacSecret: keys.hmacSecret, jwksJSON: keys.jwksJSON, clockSkew: try security.clockSkew())
        let store = try SQLiteTripStore(path: databasePath)
        let limiter = TokenRateLimiter(policy: try security.rateLimits())
        let app = TripServerApp(
            store: store, authority: authority, basemap: basemap, rateLimiter: limiter, eventRetention: try resolvedEventRetention())
        return OpenedServer(app: app, authority: authority, keys: keys)
    }
}
