import Access
import Caching
import Foundation
import Logging
import PostgresStore
import Render
import TripServer
import TripStore

/// The server `serve` and `demo` run: the API over the store `--database` names (the SQLite
/// file of the data directory by default), with the signing keys the options resolve to.
struct OpenedServer {
    let app: TripServerApp
    let authority: TokenAuthority
    let keys: SigningKeys
    let database: DatabaseChoice
}

extension ServerOptions {
    /// Opens the store and applies its migrations, and resolves the keys: from the
    /// environment, else the secret of the data directory (SQLite; created when missing) or
    /// of the database every process shares (PostgreSQL). Tokens are verified with
    /// `security`'s clock skew and limited to its rates; requests are bounded by `limits`;
    /// previews draw `basemap`, map tiles are drawn from it as `tileOptions` say, and estimates
    /// read the roads under routes from its tiles. The caches share `memory`'s budget.
    func openServer(
        _ security: SecurityOptions, limits: LimitOptions, memory: MemoryOptions = MemoryOptions(), basemap: BasemapLayer? = nil,
        tileOptions: TileOptions = TileOptions(), logger: Logger
    ) async throws -> OpenedServer {
        let database = try resolvedDatabase()
        let retention = try resolvedEventRetention()
        let cacheBudget = try memory.resolvedBudget()
        let store = try await database.open(cacheBudget: cacheBudget, server: true)
        let keys = try await signingKeys(database: database, store: store)
        let authority = try await TokenAuthority(
            hmacSecret: keys.hmacSecret, jwksJSON: keys.jwksJSON, serviceAccounts: try await security.resolvedServiceAccounts(),
            clockSkew: try security.clockSkew(), tokenCache: cacheBudget.caches)
        let limiter = TokenRateLimiter(policy: try security.rateLimits())
        var app = TripServerApp(
            store: store, authority: authority, basemap: basemap, rateLimiter: limiter, eventRetention: retention,
            limits: try limits.requestLimits(), tiles: try tileOptions.open(basemap, logger: logger),
            mapDataRate: try tileOptions.resolvedRate(), roadClasses: basemap.flatMap { BasemapRoads(source: $0.source) },
            cacheBudget: cacheBudget)
        // The documentation of the repository this binary was built from, as the demo finds its data.
        app.docsDirectory = DemoCommand.projectFile("docs")
        return OpenedServer(app: app, authority: authority, keys: keys, database: database)
    }

    /// The token keys for `store`, opened from `database`.
    func signingKeys(database: DatabaseChoice, store: any TripStore) async throws -> SigningKeys {
        if case .postgres(let location) = database, let secrets = store as? any SecretStore {
            return try await SigningKeys.resolve(environment: Self.environment, sharedIn: secrets, at: location.description)
        }
        try FileManager.default.createDirectory(atPath: resolvedDataDirectory, withIntermediateDirectories: true)
        return try SigningKeys.resolve(environment: Self.environment, dataDirectory: resolvedDataDirectory)
    }
}
