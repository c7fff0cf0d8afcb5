import Access
import PostgresStore
import SQLiteStore
import StoreVariants
import TripModel
import TripServer
import TripServerTesting
import TripStore

/// A server over a new persistent database (reopenable, to test restarts) and tokens for it:
/// each ``app()`` is a ``TripServerTesting/LocalServer``, as a ``Harness`` is, with the tests'
/// token secret, on a new store object over the same database.
struct NavServer {
    let database: Database
    let authority: TokenAuthority

    /// Where the test's data lives: an SQLite file, or a PostgreSQL schema of its own.
    enum Database {
        case sqlite(String)
        case postgres(PostgresLocation)
    }

    init(_ kind: TestStoreKind = .sqlite) async throws {
        switch kind {
        case .postgres: database = .postgres(try TestStores.requirePostgres().inSchema(TestStores.freshSchema()))
        case .sqlite, .memory: database = .sqlite(try TestStores.temporarySQLitePath())
        }
        authority = try await TokenAuthority(hmacSecret: secret)
    }

    /// A new store object and application on the same database: a restarted server.
    func app() async throws -> TripServerApp {
        let store: any TripStore =
            switch database {
            case .sqlite(let path): try SQLiteTripStore(path: path)
            case .postgres(let location):
                try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
            }
        return try await LocalServer(store: store, options: .init(hmacSecret: secret)).app
    }

    func token(_ role: Role, trip: String? = nil, vehicle: String? = nil) async throws -> String {
        switch role {
        case .server: try await authority.mint(Principal(role: .server, provider: "p", subject: "test"))
        case .driver: try await authority.mint(Principal(role: .driver, provider: "p", vehicleId: vehicle, subject: "test"))
        case .consumer: try await authority.mint(Principal(role: .consumer, provider: "p", tripId: trip, subject: "test"))
        }
    }
}
