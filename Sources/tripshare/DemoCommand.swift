import ArgumentParser
import ConnectionLimits
import Foundation
import GRPCServer
import Hummingbird
import Logging
import Navigation
import Render
import Scenarios
import ServiceLifecycle
import TripModel
import TripServer

/// `tripshare demo`: the server with a street map, plus a car driving a real route through
/// central Helsinki in real time, and the rider's share link; everything it needs ships with
/// the project (data-samples/).
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the server with a car driving a real route over a street map, and print the rider's share link.",
        discussion: """
            Starts `serve` on the embedded SQLite store (or the database --database names) with the basemap \
            \(Self.demoTiles) (central Helsinki, OpenStreetMap data), creates vehicle demo-car and trip demo-trip \
            (provider demo), gives the car's navigator the route \(Self.demoRoute) (real streets and street names \
            from OpenStreetMap, made by scripts/generate/demo_route.py), and drives the car along it at the roads' \
            speeds: to the pickup on Kaivokatu by the Central Station, a short wait, then to Fabianinkatu (about 4 minutes). \
            Every location is stamped with the time it is sent; --speed-factor F makes the car drive F times faster \
            (above about 5 a city car's fixes look like GPS jumps to the navigator). Open the printed share link in a \
            browser to watch it as the rider does, and the driver's link to see the driver's screen. With --fleet-log \
            the car replays the first trip of a Fleet Engine log instead (its recorded route segments become routes \
            with steps inferred from their turns). The server keeps running after the trip ends; SIGINT or SIGTERM \
            stop it.
            """
    )

    @OptionGroup var options: ServerOptions
    @OptionGroup(title: "Connections and tokens") var security: SecurityOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Memory") var memory: MemoryOptions
    @OptionGroup(title: "Basemap") var basemapOptions: BasemapOptions
    @OptionGroup(title: "Map tiles") var tileOptions: TileOptions
    @OptionGroup(title: "gRPC (Fleet Engine's own clients)") var grpc: GRPCOptions

    @Option(help: "How many times faster than the route's (or the log's) pace to drive (default 1: real time).")
    var speedFactor: Double?

    @Option(
        help: ArgumentHelp(
            """
            An OSRM route response with steps and two legs, to the pickup and on to the dropoff \
            (default: \(Self.demoRoute) in the repository this binary was built from).
            """, valueName: "route.json"))
    var route: String?

    @Option(
        name: [.customLong("fleet-log"), .customLong("log")],
        help: """
            A Fleet Engine log export to replay the first trip of instead, through the same calls as `replay` \
            and `import fleet-log` (e.g. ../shared/fixtures/fleet-engine-logs/two-trips-bay-area.json).
            """)
    var log: String?

    /// The demo's route and tiles, relative to a checkout of the repository.
    static let demoRoute = "data-samples/helsinki-demo-route.osrm.json"
    static let demoTiles = "data-samples/helsinki.pmtiles"

    /// A file of the repository: beside the working folder (the README runs the demo from the
    /// repository), else beside each folder above the binary (the repository holds it in
    /// `.build/<config>/` or `.build/<triple>/<config>/`), so `.build/release/tripshare demo`
    /// works from any folder too. Nil when none exists.
    static func projectFile(_ relativePath: String) -> String? {
        var paths = [relativePath]
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.resolvingSymlinksInPath()
        for _ in 0..<5 {
            folder = folder.deletingLastPathComponent()
            paths.append(folder.appendingPathComponent(relativePath).standardizedFileURL.path)
        }
        return paths.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// A recorded log is replayed at most this long by default (its own pace may be much longer).
    static let logTargetSeconds = 600.0

    func validate() throws {
        if let speedFactor, !(speedFactor > 0 && speedFactor <= 100) {
            throw ValidationError("--speed-factor must be greater than 0 and at most 100")
        }
        if route != nil && log != nil { throw ValidationError("give --route or --fleet-log, not both") }
    }

    func run() async throws {
        Logs.bootstrap(try options.resolvedLogFormat(), level: .warning)
        let logger = Logger(label: "tripshare")
        let budget = try limits.connectionBudget(fileLimit: OpenFileLimit.raiseToHard())
        let demo = try makeDrive()
        let factor = speedFactor ?? (log == nil ? 1 : max(1, demo.durationSeconds / Self.logTargetSeconds))
        let host = options.resolvedHost
        let port = try options.resolvedPort()
        try StartupChecks.ensurePortFree(host: host, port: port)
        try grpc.ensurePortFree(host: host, httpPort: port)
        // The Helsinki tiles go with the Helsinki route; a log from elsewhere gets a basemap only when given one.
        let tiles = basemapOptions.resolvedPath(fallback: log == nil && route == nil ? Self.projectFile(Self.demoTiles) : nil)
        let basemap = try basemapOptions.open(fallback: tiles, logger: logger)
        let folder = try options.resolvedDatabase().isSQLite ? options.resolvedDataDirectory : nil
        try await StartupChecks.removingNewFolder(folder) { listening in
            try await run(
                demo, factor: factor, host: host, port: port, basemap: basemap, tiles: tiles, budget: budget, logger: logger,
                listening: listening)
        }
    }

    private func run(
        _ demo: DemoDrive, factor: Double, host: String, port: Int, basemap: BasemapLayer?, tiles: String?, budget: ConnectionBudget,
        logger: Logger, listening: ListeningFlag
    ) async throws {
        let opened = try await options.openServer(
            security, limits: limits, memory: memory, basemap: basemap, tileOptions: tileOptions, logger: logger)
        var server = opened.app
        let authority = opened.authority
        let listener = try grpc.listener(for: &server, host: host, httpPort: port, tls: nil, budget: budget, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: server.makeRouter(),
            server: TripServerApp.httpServer(timeouts: try security.connectionTimeouts(), budget: budget),
            configuration: .init(address: .hostname(host, port: port), serverName: "tripshare"),
            onServerRunning: { channel in
                listening.set()
                continuation.yield(channel.localAddress?.port ?? port)
            },
            logger: logger)
        let services = ServiceGroup(
            configuration: .init(
                services: [app] + server.services + (listener.map { [$0] } ?? []), gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))

        let keyFlags: String
        switch opened.database {
        case .sqlite: keyFlags = options.dataDirectory.map { " --data-dir \($0)" } ?? ""
        case .postgres: keyFlags = " --database URL"
        }
        let drive = Task {
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next(), let base = URL(string: "http://\(host):\(bound)") else { return }
            DemoDrive.say("tripshare is listening on \(base.absoluteString) (database \(opened.database)).")
            if let basemap, let tiles { DemoDrive.say("Basemap: \(tiles) (\(basemap.summary)).") }
            do {
                let grpcAddress = try? await listener?.port
                try await demo.run(
                    base: base, grpc: grpcAddress.map { "\(host):\($0)" }, authority: authority, speedFactor: factor, keyFlags: keyFlags)
            } catch is CancellationError {
            } catch let error as NSError where error.domain == NSURLErrorDomain && error.code == NSURLErrorCannotConnectToHost {
                // Ctrl-C closes the server first; the drive's next call finds it gone.
                DemoDrive.say("demo: the server has stopped, so the drive ends here.")
            } catch {
                DemoDrive.say("The demo drive stopped: \(error)")
            }
        }
        try await services.run()
        drive.cancel()
    }

    /// The drive: the given or shipped route, or the log's first trip.
    private func makeDrive() throws -> DemoDrive {
        if let log {
            return try DemoDrive(log: try FleetLog.parse(try CommandFiles.read(log)))
        }
        guard let path = route ?? Self.projectFile(Self.demoRoute) else {
            throw ValidationError(
                """
                cannot find \(Self.demoRoute); run from the repository's folder (or a binary built in it), \
                or pass --route FILE or --fleet-log FILE
                """)
        }
        let data = try CommandFiles.read(path)
        let navRoute: NavRoute
        do { navRoute = try OSRMImporter.route(from: data) } catch { throw ValidationError("\(path): \(error)") }
        return try DemoDrive(route: navRoute, area: route == nil ? "central Helsinki, OpenStreetMap streets" : "the route in \(path)")
    }
}
