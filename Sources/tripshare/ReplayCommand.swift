import Access
import ArgumentParser
import Basemap
import Foundation
import Hummingbird
import JSON
import Logging
import Render
import Scenarios
import ServiceLifecycle
import TripModel
import TripServer

/// `tripshare replay`: replays a Fleet Engine log through the REST API and checks every
/// rider view on the way.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a Fleet Engine Cloud Logging export through the REST API and check the rider views.",
        discussion: """
            Sends every create/update call of the log, in time order, to a tripshare server over HTTP and, after \
            each call, reads every trip in the JOURNEY_SHARING_V1S view with a consumer token and checks its status, \
            the vehicle's position, the stops and the versions. Without --server it starts a private server on a \
            temporary SQLite database, or on the database --database names. With --without-driver-estimates the driver's remaining distance and time are \
            removed from the updates and our estimates are compared with them; with --score both are scored against \
            the moments the vehicles really arrived.
            Example: tripshare replay ../shared/fixtures/fleet-engine-logs/two-trips-bay-area.json --without-driver-estimates
            """
    )

    @Argument(help: "The log export (JSON).")
    var log: String

    @Flag(help: "Remove the driver's remaining distance/time from vehicle updates and compare our estimates with them.")
    var withoutDriverEstimates = false

    @Option(help: "Replay against this running server (e.g. http://127.0.0.1:8080) instead of a private one.")
    var server: String?

    @Option(
        name: .customLong("basemap"),
        help: ArgumentHelp(
            "Without --server: the private server reads road classes for its estimates from these vector tiles (PMTiles, "
                + "MBTiles, or a folder of z/x/y.mvt or z-x-y.mvt tiles).", valueName: "file"))
    var basemap: String?

    @Option(name: .customLong("data-dir"), help: "With --server: the server's data directory, for its signing key (default ./data).")
    var dataDirectory: String?

    @Option(
        name: .customLong("database"),
        help: """
            Without --server: replay into this database (a path, sqlite:PATH or postgres://...) instead of a temporary one; \
            with --server: the server's database, for its signing key.
            """)
    var database: String?

    @Flag(
        help: """
            Score our remaining time and the driver app's against the moments the vehicles really arrived, per leg and \
            overall (MAE, median, MAPE, bias, and the share of updates with an estimate).
            """)
    var score = false

    @Option(
        help: """
            Write the report as JSON to this file: every update inside a leg and every one compared with the driver's, \
            with our and the driver's remaining distance and time and the seconds to the real arrival.
            """)
    var report: String?

    func validate() throws {
        if basemap != nil, server != nil {
            throw ValidationError("--basemap is for the private server; a running server reads its own (serve --basemap)")
        }
    }

    func run() async throws {
        let roadClasses: BasemapRoads?
        if let basemap {
            let source: any TileSource
            do { source = try TileArchive.open(path: basemap) } catch { throw ValidationError("cannot use the basemap: \(error.message)") }
            guard let roads = BasemapRoads(source: source) else {
                throw ValidationError("cannot use the basemap: \(basemap) holds \(source.metadata.format) images, not vector tiles")
            }
            roadClasses = roads
        } else {
            roadClasses = nil
        }
        let data = try CommandFiles.read(log)
        let fleetLog = try FleetLog.parse(data)
        print("\(log): \(fleetLog.entries.count) calls\(fleetLog.skippedEntryTypes.isEmpty ? "" : ", skipped \(fleetLog.skippedEntryTypes)")")
        if let server {
            guard let url = URL(string: server) else { throw ValidationError("--server must be a URL") }
            var options = try ServerOptions.parse([])
            options.dataDirectory = dataDirectory
            options.database = database
            let choice = try options.resolvedDatabase()
            let keys: SigningKeys
            if case .postgres = choice {
                keys = try await options.signingKeys(database: choice, store: try await choice.open())
            } else {
                keys = try SigningKeys.resolve(environment: ServerOptions.environment, dataDirectory: options.resolvedDataDirectory)
            }
            try await replay(fleetLog, url: url, authority: try await TokenAuthority(hmacSecret: keys.hmacSecret))
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let authority = try await TokenAuthority(hmacSecret: secret)
        // A server of its own: on an SQLite file it must be the only writer, as `serve` is.
        let store = try await (database.map(DatabaseChoice.init) ?? .sqlite(path: directory.appendingPathComponent("replay.sqlite").path))
            .open(server: true)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "tripshare-replay")
        logger.logLevel = .warning
        let app = Application(
            router: TripServerApp(
                store: store, authority: authority, rateLimiter: TokenRateLimiter(policy: .unlimited),
                limits: RequestLimits(pixelsPerSecond: nil), roadClasses: roadClasses
            ).makeRouter(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
                throw ValidationError("the private server did not start")
            }
            do {
                try await replay(fleetLog, url: url, authority: authority)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }

    private func replay(_ fleetLog: FleetLog, url: URL, authority: TokenAuthority) async throws {
        // A log may hold several providers' calls: the writes go with a token for all of them.
        let serverToken = try await authority.mint(Principal(role: .server, provider: Principal.allProviders, subject: "replay"))
        let replay = FleetLogReplay(log: fleetLog, transport: HTTPTransport(baseURL: url), serverToken: serverToken) { provider, tripId in
            try await authority.mint(Principal(role: .consumer, provider: provider, tripId: tripId, subject: "replay"))
        }
        let progress = ProgressLine(label: "replaying")
        let result = try await replay.run(.init(withoutDriverEstimates: withoutDriverEstimates, score: score)) { done, total in
            progress.update(done, of: total)
        }
        progress.finish()
        print("\(result.calls) calls, \(result.checks) view checks, \(result.failures.count) failures")
        if !result.synthesizedVehicles.isEmpty {
            print("created from their first logged state (the log has no create_vehicle): \(result.synthesizedVehicles.joined(separator: ", "))")
        }
        for failure in result.failures.prefix(20) { print("  FAIL \(failure)") }
        if let score = result.score {
            for line in score.table { print(line) }
            for line in result.basisTable { print(line) }
        }
        if result.remainingDistance != nil || result.remainingTime != nil {
            print("compared with the driver app's own numbers (no oracle), while Fleet Engine had the vehicle on a trip:")
        }
        if let d = result.remainingDistance {
            print(
                String(
                    format: "remaining distance vs driver (%d updates): median %.1f m, p90 %.1f m, max %.0f m; within 2%%/20 m: %.1f%%",
                    d.count, d.median, d.p90, d.maximum, 100 * (d.withinTolerance ?? 0)))
        }
        if let t = result.remainingTime {
            print(String(format: "remaining time vs driver (%d updates): median %.1f s, p90 %.1f s, max %.0f s", t.count, t.median, t.p90, t.maximum))
        }
        if let path = report {
            try JSONCoding.encodePretty(result).write(to: URL(fileURLWithPath: path))
            print("report written to \(path)")
        }
        if !result.failures.isEmpty { throw ExitCode.failure }
    }
}
