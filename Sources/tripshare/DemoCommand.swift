import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TripModel
import TripServer

/// `tripshare demo`: the server, plus a car driving a recorded Bay Area trip in accelerated
/// real time, and the rider's share link.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the server with a simulated car driving a real recorded trip, and print the rider's share link.",
        discussion: """
            Starts `serve` on the embedded SQLite store (or the database --database names), creates vehicle demo-car and trip demo-trip (provider demo) \
            from the first trip of a Fleet Engine log (its pickup, dropoff, recorded route segments and locations), \
            and replays the driver's updates over HTTP, faster than real time by --speed-factor (by default the \
            whole trip takes about 3 minutes). The log has route geometry but no turn-by-turn steps or road names, so \
            each new recorded route segment is sent as the car's navigator route (PUT .../vehicles/demo-car/route) with \
            steps inferred from the route's turns, worded without road names ("Turn left"). Open the printed share \
            link in a browser to watch it. The server keeps running after the trip ends; SIGINT or SIGTERM stop it.
            """
    )

    @OptionGroup var options: ServerOptions

    @Option(help: "How many times faster than recorded to drive (default: the trip takes about 3 minutes).")
    var speedFactor: Double?

    @Option(name: [.customLong("fleet-log"), .customLong("log")], help: """
        A Fleet Engine log export to replay the first trip of, through the same calls as `replay` \
        and `import fleet-log` (default: \(Self.sharedLog) beside the working folder, or beside the \
        repository this binary was built in).
        """)
    var log: String?

    /// The recorded log the demo drives, relative to a checkout of the repository.
    static let sharedLog = "../shared/fixtures/fleet-engine-logs/two-trips-bay-area.json"

    /// Where the log is looked for without --fleet-log: beside the working folder (the README runs
    /// the demo from the repository), then beside each folder above the binary (the
    /// repository holds it in `.build/<config>/` or `.build/<triple>/<config>/`), so
    /// `.build/release/tripshare demo` works from any folder too.
    static func defaultLogPaths() -> [String] {
        var paths = [sharedLog]
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL.resolvingSymlinksInPath()
        for _ in 0..<5 {
            folder = folder.deletingLastPathComponent()
            let path = folder.appendingPathComponent(sharedLog).standardizedFileURL.path
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The whole demo trip takes about this long by default.
    static let targetSeconds = 180.0

    func validate() throws {
        if let speedFactor, !(speedFactor > 0 && speedFactor <= 10_000) {
            throw ValidationError("--speed-factor must be greater than 0 and at most 10000")
        }
    }

    func run() async throws {
        Logs.bootstrap(try options.resolvedLogFormat(), level: .warning)
        let logger = Logger(label: "tripshare")
        let candidates = log.map { [$0] } ?? Self.defaultLogPaths()
        guard let data = candidates.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else {
            throw ValidationError("""
                cannot read \(candidates.joined(separator: " or ")); run from the repository's folder with \
                ../shared beside it, or pass --fleet-log FILE
                """)
        }
        let demo = try DemoDrive(log: try FleetLog.parse(data))
        let factor = speedFactor ?? max(1, demo.durationSeconds / Self.targetSeconds)

        let opened = try await options.openServer()
        let server = opened.app
        let authority = opened.authority
        let host = options.resolvedHost
        let port = try options.resolvedPort()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: server.makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "tripshare"),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? port) },
            logger: logger)
        let services = ServiceGroup(configuration: .init(
            services: [app] + server.services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))

        let keyFlags: String
        switch opened.database {
        case .sqlite: keyFlags = options.dataDirectory.map { " --data-dir \($0)" } ?? ""
        case .postgres: keyFlags = " --database URL"
        }
        let drive = Task {
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next(), let base = URL(string: "http://\(host):\(bound)") else { return }
            DemoDrive.say("tripshare is listening on \(base.absoluteString) (database \(opened.database)).")
            do {
                try await demo.run(base: base, authority: authority, speedFactor: factor, keyFlags: keyFlags)
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
}
