import Access
import AccessTesting
import PostgresStore
import SQLiteStore
import StoreVariants
import TripModel
import TripServer
import TripStore

/// A server over a new persistent database (reopenable, to test restarts) and tokens for it:
/// each ``start()`` is a ``Harness`` on the real clock, with the tests' token secret and the
/// server's own map data rate, on a new store object over the same database.
package struct RestartableServer: Sendable {
    /// Where the data lives, across restarts.
    package let database: Database
    /// Who mints the tokens every start of the server accepts.
    package let authority: TokenAuthority

    /// Where the test's data lives: an SQLite file, or a PostgreSQL schema of its own.
    package enum Database: Sendable {
        /// An SQLite database file.
        case sqlite(String)
        /// A schema of the test database.
        case postgres(PostgresLocation)
    }

    /// A new database of `kind` (SQLite for `.memory`, which cannot outlive a restart).
    package init(_ kind: TestStoreKind = .sqlite) async throws {
        switch kind {
        case .postgres: database = .postgres(try TestStores.requirePostgres().inSchema(TestStores.freshSchema()))
        case .sqlite, .memory: database = .sqlite(try TestStores.temporarySQLitePath())
        }
        authority = try await TokenAuthority(hmacSecret: testTokenSecret)
    }

    /// A new store object and server on the same database: a restarted server.
    package func start() async throws -> Harness {
        let store: any TripStore =
            switch database {
            case .sqlite(let path): try SQLiteTripStore(path: path)
            case .postgres(let location):
                try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
            }
        return try await Harness(
            store: store, clock: .system, limits: RequestLimits(pixelsPerSecond: nil), mapDataRate: TripServerApp.defaultMapDataRate,
            authority: authority)
    }

    /// A token of `role` for provider `p`, of `trip` (a consumer's) or `vehicle` (a driver's).
    package func token(_ role: Role, trip: String? = nil, vehicle: String? = nil) async throws -> String {
        switch role {
        case .server: try await authority.mint(Principal(role: .server, provider: "p", subject: "test"))
        case .driver: try await authority.mint(Principal(role: .driver, provider: "p", vehicleId: vehicle, subject: "test"))
        case .consumer: try await authority.mint(Principal(role: .consumer, provider: "p", tripId: trip, subject: "test"))
        }
    }
}
