import ArgumentParser
import Foundation
import Scenarios
import TripModel

/// `tripshare import fleet-log`: a Fleet Engine log export as a fixture scenario.
struct ImportFleetLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-log",
        abstract: "Turn a Fleet Engine Cloud Logging export into a fixture scenario.",
        discussion: """
            Reads both export shapes (a rawLogs object or a bare array; lowercase or camelCase keys; log \
            spellings such as TRIP_STATUS_NEW) and writes DIR/scenario.json: every create/update as the REST \
            call it was, at its logged time, and a checkpoint (rider view, preview, trip events) after every \
            trip update. What the log leaves out is inferred and listed in the scenario's notes. Record the \
            goldens with `tripshare fixtures run DIR --update`.
            Example: tripshare import fleet-log ../shared/fixtures/fleet-engine-logs/jump-demo.json --out Tests/Fixtures/jump-demo
            """
    )

    @Argument(help: "The log export (JSON).")
    var log: String

    @Option(help: "The fixture folder to write (created if needed).")
    var out: String

    @Option(help: "The scenario's name (default: the folder's name).")
    var name: String?

    @Option(help: "Where the log comes from, with its licence (written into the scenario).")
    var source: String?

    func run() async throws {
        let data: Data
        data = try CommandFiles.read(log)
        let fleetLog: FleetLog
        do { fleetLog = try FleetLog.parse(data) } catch { throw ValidationError("\(log): \(error.message)") }
        let directory = URL(fileURLWithPath: out)
        let (scenario, report) = try FleetLogImporter.scenario(
            from: fleetLog, name: name ?? directory.lastPathComponent, source: source ?? (log as NSString).lastPathComponent)
        try scenario.write(to: directory)
        print(
            "Wrote \(directory.appendingPathComponent("scenario.json").path): \(scenario.timeline.count) calls, \(scenario.checkpoints.count) checkpoints."
        )
        if !report.skippedEntryTypes.isEmpty {
            let counts = report.skippedEntryTypes.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            print("Log entries not replayed (not create/update calls): \(counts.joined(separator: ", "))")
        }
        let dropped = report.droppedFields.values.reduce(0, +)
        if dropped > 0 {
            let top = report.droppedFields.sorted { $0.value > $1.value }.prefix(5).map { "\($0.key) ×\($0.value)" }
            print(
                "Fields the API does not model, dropped: \(dropped) (\(top.joined(separator: ", "))\(report.droppedFields.count > 5 ? ", ..." : ""))")
        }
        if !report.synthesizedVehicles.isEmpty {
            print("Created from their first logged state (the log never creates them): \(report.synthesizedVehicles.joined(separator: ", "))")
        }
        if report.locationsFromRaw > 0 { print("Locations taken from the raw GPS fix: \(report.locationsFromRaw)") }
        if report.locationsWithoutPosition > 0 {
            print("Location updates with neither a location nor a raw fix (lastLocation left out): \(report.locationsWithoutPosition)")
        }
        if report.inferredPlaces > 0 {
            print("Trip places inferred from the vehicle's position: \(report.inferredPlaces) (see the scenario's notes)")
        }
    }
}
