import Foundation
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
    /// is configured), opens the store and applies its migrations.
    func openServer() async throws -> OpenedServer {
        try FileManager.default.createDirectory(atPath: resolvedDataDirectory, withIntermediateDirectories: true)
        let keys = try SigningKeys.resolve(environment: Self.environment, dataDirectory: resolvedDataDirectory)
        let authority = try await TokenAuthority(hmacSecret: keys.hmacSecret, jwksJSON: keys.jwksJSON)
        let store = try SQLiteTripStore(path: databasePath)
        let app = TripServerApp(store: store, authority: authority, eventRetention: try resolvedEventRetention())
        return OpenedServer(app: app, authority: authority, keys: keys)
    }
}
