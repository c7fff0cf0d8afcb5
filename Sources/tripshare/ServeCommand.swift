import ArgumentParser
import ConnectionLimits
import Foundation
import GRPCServer
import Hummingbird
import Logging
import Render
import ServiceLifecycle
import TripServer

/// `tripshare serve`: the API server on the embedded SQLite store or a shared PostgreSQL one.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the API server on the embedded SQLite store or a shared PostgreSQL database.",
        discussion: """
            Data lives in --data-dir (tripshare.sqlite, and jwt-secret when no key is configured), or in the \
            PostgreSQL database --database names, which several serve processes may share (with the signing secret \
            kept in it); a database that cannot be reached at start-up is an error. \
            Tokens are HS256 with TRIPSHARE_JWT_SECRET, or verified with the public keys of the JWKS file \
            named by TRIPSHARE_JWKS; with neither, a random secret is created in the data directory (mode 0600). \
            Every token is bound to one provider and, for drivers and consumers, limited to --rate-limit \
            requests a second (over it: 429 RESOURCE_EXHAUSTED with Retry-After). Each server process counts \
            on its own. Connections that idle, send their request head slowly, stall an upload or leave their \
            answers untaken (--write-timeout) are closed; so is one whose request the HTTP layer cannot read, after \
            its 400. The server raises its open-file limit to the hard limit and holds at most --max-connections \
            connections; beyond, /healthz and /readyz are still answered and anything else gets 503 (docs/limits.md). \
            With --basemap, previews (and the share page) draw the streets of that tile archive under the trip; \
            a file that is not a PMTiles or MBTiles archive stops the server from starting. \
            Google's Fleet Engine clients (gRPC) are served on --grpc-port, the same data behind both ports; \
            with --tls-cert and --tls-key both listeners speak TLS only, and with --service-accounts the \
            Fleet Engine–shaped tokens of those service accounts are accepted on both (docs/grpc.md). \
            SIGTERM or SIGINT stop the server after the requests in flight are answered.
            """
    )

    @OptionGroup var options: ServerOptions
    @OptionGroup(title: "Connections and tokens") var security: SecurityOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Memory") var memory: MemoryOptions
    @OptionGroup(title: "Basemap") var basemapOptions: BasemapOptions
    @OptionGroup(title: "Map tiles") var tileOptions: TileOptions
    @OptionGroup(title: "gRPC (Fleet Engine's own clients)") var grpc: GRPCOptions
    @OptionGroup(title: "TLS") var tls: TLSOptions

    func run() async throws {
        Logs.bootstrap(try options.resolvedLogFormat())
        let logger = Logger(label: "tripshare")
        // Before anything opens a file: the connections a server holds need descriptors.
        let fileLimit = OpenFileLimit.raiseToHard()
        let budget = try limits.connectionBudget(fileLimit: fileLimit)
        let host = options.resolvedHost
        let port = try options.resolvedPort()
        try StartupChecks.ensurePortFree(host: host, port: port)
        try grpc.ensurePortFree(host: host, httpPort: port)
        let basemap = try basemapOptions.open(logger: logger)
        let folder = try options.resolvedDatabase().isSQLite ? options.resolvedDataDirectory : nil
        try await StartupChecks.removingNewFolder(folder) { listening in
            try await serve(
                host: host, port: port, basemap: basemap, fileLimit: fileLimit, budget: budget, logger: logger, listening: listening)
        }
    }

    private func serve(
        host: String, port: Int, basemap: BasemapLayer?, fileLimit: OpenFileLimit?, budget: ConnectionBudget, logger: Logger,
        listening: ListeningFlag
    ) async throws {
        let opened = try await options.openServer(
            security, limits: limits, memory: memory, basemap: basemap, tileOptions: tileOptions, logger: logger)
        var server = opened.app
        let keys = opened.keys
        let tlsFiles = try tls.resolvedFiles()
        let listener = try grpc.listener(for: &server, host: host, httpPort: port, tls: tlsFiles, budget: budget, logger: logger)
        let scheme = tlsFiles == nil ? "http" : "https"

        if let created = keys.createdSecretFile {
            print("Created a token signing key in \(created) (mode 0600).")
        }
        if keys.createdInStore { print("Created a token signing key in the database; every server on it uses it.") }
        let tokenHint: String
        switch opened.database {
        case .sqlite: tokenHint = options.dataDirectory.map { " --data-dir \($0)" } ?? ""
        case .postgres: tokenHint = " --database URL"
        }
        let app = Application(
            router: server.makeRouter(),
            server: try TLSOptions.httpServer(
                TripServerApp.httpServer(timeouts: try security.connectionTimeouts(), budget: budget), files: tlsFiles),
            configuration: .init(address: .hostname(host, port: port), serverName: "tripshare"),
            onServerRunning: { channel in
                listening.set()
                let bound = channel.localAddress?.port ?? port
                if let basemap, let path = basemapOptions.resolvedPath() {
                    print("Basemap: \(path) (\(basemap.summary)).")
                }
                print("Connections: up to \(budget.maximum) at once (open files: \(fileLimit?.description ?? "limit unknown")).")
                print("Allocator: \(Allocator.current.summary).")
                print(
                    """
                    tripshare is listening on \(scheme)://\(host):\(bound) (database \(opened.database), keys from \(keys.source)).
                    Mint a token:   tripshare token --role server --provider demo\(tokenHint)
                    Try the API:    curl -H "Authorization: Bearer $TOKEN" "\(scheme)://\(host):\(bound)/v1/providers/demo/vehicles?vehicleTypeCategories=AUTO"
                    """)
                // Written to a file or a pipe (a service manager's log), stdout is buffered by the
                // block: these lines would wait there until kilobytes more were printed.
                fflush(nil)
            },
            logger: logger
        )
        let services = ServiceGroup(
            configuration: .init(
                services: [app, MemoryTrimService()] + server.services + (listener.map { [$0] } ?? []), gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        if let listener {
            // Said once the listener is bound; a listener that cannot bind fails the service group.
            Task {
                guard let bound = try? await listener.port else { return }
                print("Fleet Engine gRPC (VehicleService, TripService) on \(host):\(bound)\(tlsFiles == nil ? "" : " over TLS").")
                fflush(nil)
            }
        }
        try await services.run()
    }
}
