import ArgumentParser
import Foundation
import JSON
import Navigation
import Scenarios
import TripModel

/// `tripshare fixtures drive`: a scenario of a simulated drive along a route.
struct FixturesDriveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drive",
        abstract: "Write a fixture scenario of a simulated car driving a route with steps.",
        discussion: """
            ROUTE is a route with steps (the body of PUT .../vehicles/{id}/route, as `tripshare import osrm|valhalla` \
            writes it), or with --format osrm|valhalla a routing engine's response. The car takes one rider from the \
            route's start to its end, reporting a location every --interval seconds of simulated time; checkpoints \
            record the rider's view, the preview, navInfo and the navigator's events.
            Example: tripshare fixtures drive ../shared/fixtures/valhalla/route.json --format valhalla --out Tests/Fixtures/valhalla-berlin
            """
    )

    @Argument(help: "The route file.")
    var route: String

    @Option(help: "navroute (default), osrm or valhalla.")
    var format: String = "navroute"

    @Option(help: "The fixture folder to write.")
    var out: String

    @Option(help: "Seconds of simulated time between location updates.")
    var interval: Double = 5

    @Option(help: "Stop after this many minutes of driving (default: drive to the end).")
    var minutes: Double?

    @Option(help: "Checkpoints spread over the drive.")
    var checkpoints: Int = 6

    @Option(help: "When the drive starts (RFC 3339).")
    var start: String = "2025-03-14T09:00:00Z"

    @Option(help: "Where the route comes from, with its licence (written into the scenario).")
    var source: String?

    func validate() throws {
        if !(interval > 0) { throw ValidationError("--interval must be positive") }
        if !(1...50).contains(checkpoints) { throw ValidationError("--checkpoints must be between 1 and 50") }
    }

    func run() async throws {
        guard let time = Timestamp(rfc3339: start) else { throw ValidationError("--start: '\(start)' is not an RFC 3339 time") }
        guard let data = FileManager.default.contents(atPath: route) else { throw ValidationError("cannot read \(route)") }
        let navRoute: NavRoute
        do {
            switch format {
            case "osrm": navRoute = try OSRMImporter.route(from: data)
            case "valhalla": navRoute = try ValhallaImporter.route(from: data)
            case "navroute": navRoute = try JSONCoding.decode(NavRoute.self, from: data, root: "route")
            default: throw ValidationError("--format must be navroute, osrm or valhalla")
            }
        } catch let error as ValidationError { throw error } catch { throw ValidationError("\(route): \(error)") }
        let directory = URL(fileURLWithPath: out)
        let scenario = try DriveScenario.scenario(
            route: navRoute, name: directory.lastPathComponent, source: source ?? (route as NSString).lastPathComponent,
            options: .init(start: time, interval: interval, maximumSeconds: minutes.map { $0 * 60 }, checkpoints: checkpoints))
        try scenario.write(to: directory)
        print(
            "Wrote \(directory.appendingPathComponent("scenario.json").path): \(scenario.timeline.count) calls, \(scenario.checkpoints.count) checkpoints."
        )
    }
}
