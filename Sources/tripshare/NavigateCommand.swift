import ArgumentParser
import Foundation
import JSON
import Navigation
import Render
import TripModel

/// `tripshare navigate`: the server's navigator without a server, on a simulated drive or a
/// recorded trace, printing one JSON event per line.
struct NavigateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navigate",
        abstract: "Run the navigator on a route, along a simulated drive or a recorded trace; print its events as JSON lines.",
        discussion: """
            Each line is {"event": NAME, "time": RFC 3339, "data": {...}}; the data of didUpdateNavInfo is the \
            NavInfo (with --remaining-steps of its remaining steps listed; remainingStepCount counts them all). \
            --drive moves a vehicle along the route at the speeds its durations imply; --trace reads CSV \
            (time,latitude,longitude[,heading,speed,accuracy]) or JSON Lines. With --reroute, that route is set \
            when the navigator starts rerouting, as a driver app fetching a new route would.
            With --frames DIR it also writes DIR/navigation-NNNNN.png, the driver's screen as GET .../navigation.png \
            draws it, for every didUpdateNavInfo (--settings: navigation UI settings JSON; --width, --height, --scale, \
            --camera, --perspective, --lighting, --units, --tz: navigation.png's query).
            Example: tripshare import osrm ../shared/fixtures/osrm/portugal_to_korea.json --out route.json && \
            tripshare navigate --route route.json --drive --speed-factor 10 > events.jsonl
            """
    )

    @Option(help: "The route JSON (as `tripshare import` writes it, or the body of PUT .../route).")
    var route: String

    @Flag(help: "Drive the route in simulation.")
    var drive = false

    @Option(help: "With --drive: compress time by this factor (10: a report every 10 s of driving per --interval); speeds stay real.")
    var speedFactor = 1.0

    @Option(help: "With --drive: seconds between location reports, before --speed-factor compresses them.")
    var interval = 1.0

    @Option(help: "Replay this trace (.csv, or .jsonl with one point per line) instead of driving.")
    var trace: String?

    @Option(help: "A route to set when the navigator starts rerouting (once).")
    var reroute: String?

    @Option(help: "Start time, RFC 3339 (default now): the drive's start, and the times of trace points without one.")
    var start: String?

    @Option(help: "Remaining steps listed in each didUpdateNavInfo; -1 lists all.")
    var remainingSteps = 3

    @Option(help: "Seconds the remaining time must move before didUpdateRemainingTime.")
    var timeUpdateThreshold = 1.0

    @Option(help: "Metres the remaining distance must move before didUpdateRemainingDistance.")
    var distanceUpdateThreshold = 1.0

    @Option(help: "Write the events here instead of standard output.")
    var out: String?

    @Option(help: "Also write the driver's screen for every NavInfo into this directory.")
    var frames: String?

    @Option(help: "With --frames: navigation UI settings JSON (as PUT .../navigationUISettings takes it).")
    var settings: String?

    @Option(help: "With --frames: the screen's width in points (default 390).")
    var width: String?

    @Option(help: "With --frames: the screen's height in points (default 844).")
    var height: String?

    @Option(help: "With --frames: device pixels per point, 1–3.")
    var scale: String?

    @Option(help: "With --frames: following, overview or free.")
    var camera: String?

    @Option(help: "With --frames: topDownHeadingUp or topDownNorthUp.")
    var perspective: String?

    @Option(help: "With --frames: auto, normal or lowLight.")
    var lighting: String?

    @Option(help: "With --frames: metric or imperial.")
    var units: String?

    @Option(help: "With --frames: the time zone of the arrival time, e.g. Europe/Lisbon (default UTC).")
    var tz: String?

    func validate() throws {
        if drive == (trace != nil) { throw ValidationError("give exactly one of --drive and --trace") }
        if !(speedFactor > 0) || !(interval > 0) { throw ValidationError("--speed-factor and --interval must be positive") }
        if start.map({ Timestamp(rfc3339: $0) == nil }) == true { throw ValidationError("--start must be an RFC 3339 time") }
        if frames == nil, !screenParameters.isEmpty || settings != nil {
            throw ValidationError("--settings and the screen options need --frames")
        }
    }

    /// navigation.png's query, from the screen options given.
    var screenParameters: [String: String] {
        [
            "width": width, "height": height, "scale": scale, "camera": camera, "perspective": perspective,
            "lighting": lighting, "units": units, "tz": tz,
        ].compactMapValues { $0 }
    }

    func run() async throws {
        let startTime = start.flatMap { Timestamp(rfc3339: $0)?.date } ?? Date()
        let mainRoute = try Self.readRoute(route)
        var rerouteRoute = try reroute.map(Self.readRoute)
        let points: AnySequence<TracePoint>
        if let trace {
            let data = try Data(contentsOf: URL(fileURLWithPath: trace))
            let read = trace.hasSuffix(".csv") ? try TraceReader.csv(data, start: startTime) : try TraceReader.jsonl(data)
            points = AnySequence(read)
        } else {
            points = AnySequence(try DriveSimulator(route: mainRoute, start: startTime, interval: interval, speedFactor: speedFactor))
        }

        var navigator = Navigator(
            settings: NavigatorSettings(
                timeUpdateThreshold: timeUpdateThreshold, distanceUpdateThreshold: distanceUpdateThreshold))
        let output = try LineOutput(path: out)
        var frameWriter = try frames.map {
            try NavigationFrameWriter(directory: $0, settingsFile: settings, parameters: screenParameters, navigator: navigator.settings)
        }
        try frameWriter?.setRoute(mainRoute)
        var count = 0
        func emit(_ events: [NavEvent], at time: Date) throws {
            for event in events {
                var shown = event
                if remainingSteps >= 0, case .didUpdateNavInfo(let info) = event {
                    shown = .didUpdateNavInfo(info.limitingRemainingSteps(to: remainingSteps))
                }
                // Written by hand so the keys come in the documented order: event, time, data.
                var line = Data("{\"event\":\"\(event.name)\",\"time\":\"\(Timestamp(time).rfc3339)\",\"data\":".utf8)
                line.append(try JSONCoding.encode(shown))
                line.append(UInt8(ascii: "}"))
                output.writeLine(line)
                count += 1
            }
        }
        func observe(_ events: [NavEvent], at time: Date) throws {
            try emit(events, at: time)
            try frameWriter?.observe(events, navigator: navigator, time: time)
        }
        try observe(try navigator.setRoute(mainRoute, at: startTime), at: startTime)
        var updates = 0
        for point in points {
            updates += 1
            try observe(
                navigator.update(
                    location: point.location, heading: point.heading,
                    speedMetersPerSecond: point.speedMetersPerSecond,
                    accuracyMeters: point.accuracyMeters, time: point.time), at: point.time)
            if navigator.navInfo.navState == .rerouting, let next = rerouteRoute {
                rerouteRoute = nil
                try frameWriter?.setRoute(next)
                try observe(try navigator.setRoute(next, at: point.time), at: point.time)
            }
        }
        output.flush()
        let filter = navigator.jumpFilterStatistics
        FileHandle.standardError.write(
            Data(
                """
                \(updates) location updates, \(count) events; jump filter: \(filter.accepted) accepted, \
                \(filter.relocations) relocations, \(filter.droppedJumps) dropped jumps, \(filter.inaccurate) inaccurate\
                \(frameWriter.map { "; \($0.count) frames in \(frames ?? "")" } ?? "")
                """.utf8 + [0x0A]))
    }

    static func readRoute(_ path: String) throws -> NavRoute {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let route = try JSONCoding.decode(NavRoute.self, from: bytes, root: path)
        do {
            _ = try route.validate()
        } catch {
            throw ValidationError("\(path): \(error)")
        }
        return route
    }
}
