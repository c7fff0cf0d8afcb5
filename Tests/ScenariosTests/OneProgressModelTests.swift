import Foundation
import JSON
import Navigation
import Testing
import TripModel

@testable import Scenarios

/// One progress model (DESIGN §5, issue 18): wherever a vehicle has a navigator on a route,
/// the rider's `JOURNEY_SHARING_V1S` view and the vehicle's NavInfo agree within 1 s and 1 m.
@Suite struct OneProgressModelTests {
    /// What was compared in a run.
    struct Agreement {
        /// Comparisons made.
        var compared = 0
        /// For each checkpoint in order, whether it compared anything.
        var checkpointsCompared: [Bool] = []
        var disagreements: [String] = []
    }

    /// Runs `scenario` with the trip and the navInfo of its vehicle recorded at every
    /// checkpoint (the checkpoints' other recordings dropped), and compares each pair.
    func agreement(of scenario: Scenario, name: String) async throws -> Agreement {
        var scenario = scenario
        scenario.checkpoints = scenario.checkpoints.compactMap { original in
            guard let trip = original.trip, let vehicle = Self.vehicle(of: trip, in: scenario, checkpoint: original) else { return nil }
            var checkpoint = Scenario.Checkpoint(name: original.name, at: original.at)
            checkpoint.trip = trip
            checkpoint.navInfo = vehicle
            return checkpoint
        }
        let run = try await ScenarioRunner(scenario: scenario, directory: try temporaryFolder()).run()
        #expect(run.failures.isEmpty, "\(name): \(run.failures.prefix(3))")
        var result = Agreement()
        for checkpoint in scenario.checkpoints {
            guard case .json(let view)? = run.artefacts.first(where: { $0.fileName == "\(checkpoint.name).trip.json" })?.content,
                case .json(let info)? = run.artefacts.first(where: { $0.fileName == "\(checkpoint.name).navinfo.json" })?.content
            else {
                Issue.record("\(name) \(checkpoint.name): nothing recorded")
                continue
            }
            let compared = Self.compare(view: view, navInfo: info, label: "\(name) \(checkpoint.name)", into: &result.disagreements)
            result.compared += compared
            result.checkpointsCompared.append(compared > 0)
        }
        return result
    }

    /// Compares a rider's view with a NavInfo: the first stop against the next destination,
    /// the last against the final one, distances (1 m) and times (1 s) from the vehicle.
    /// Returns how many comparisons were made (none while the navigator is stopped or the
    /// trip has no stops left).
    static func compare(view: JSONValue, navInfo: JSONValue, label: String, into disagreements: inout [String]) -> Int {
        guard case .string(let state)? = navInfo["navState"], state != "stopped",
            case .array(let waypoints)? = view["remainingWaypoints"], !waypoints.isEmpty
        else { return 0 }
        var meters: [Double] = []
        var seconds: [Double] = []
        for waypoint in waypoints {
            guard case .number(let distance, _)? = waypoint["distanceMeters"], case .string(let duration)? = waypoint["duration"],
                let time = Double(duration.dropLast())
            else { return 0 }
            meters.append((meters.last ?? 0) + distance)
            seconds.append((seconds.last ?? 0) + time)
        }
        var compared = 0
        func check(_ ours: Double, _ field: String, tolerance: Double) {
            guard case .number(let theirs, _)? = navInfo[field] else { return }
            compared += 1
            if abs(ours - theirs) > tolerance { disagreements.append("\(label): rider \(ours), NavInfo \(field) \(theirs)") }
        }
        check(meters[0], "distanceToNextDestinationMeters", tolerance: 1)
        check(seconds[0], "timeToNextDestinationSeconds", tolerance: 1)
        check(meters[meters.count - 1], "distanceToFinalDestinationMeters", tolerance: 1)
        check(seconds[seconds.count - 1], "timeToFinalDestinationSeconds", tolerance: 1)
        if case .number(let remaining, _)? = view["remainingDistanceMeters"] {
            check(remaining, "distanceToNextDestinationMeters", tolerance: 1)
        }
        if case .string(let first)? = view["remainingTimeToFirstWaypoint"], let time = Double(first.dropLast()) {
            check(time, "timeToNextDestinationSeconds", tolerance: 1)
        }
        return compared
    }

    /// The vehicle serving `trip` at a checkpoint: the one it names, or the trip's.
    static func vehicle(of trip: String, in scenario: Scenario, checkpoint: Scenario.Checkpoint) -> String? {
        if let vehicle = checkpoint.navInfo ?? checkpoint.vehicle { return vehicle }
        if case .string(let vehicle)? = scenario.trips[trip]?["vehicleId"] { return vehicle }
        return nil
    }

    /// Every checkpoint of every committed fixture: where the vehicle is guided, rider and
    /// NavInfo agree (the fixtures without a route with steps have nothing to compare).
    @Test func committedFixturesAgree() async throws {
        var guided: [String: Int] = [:]
        for folder in try FixtureBatch.discover([fixturesURL]) {
            let scenario = try Scenario.load(from: folder.appendingPathComponent("scenario.json"))
            let result = try await agreement(of: scenario, name: folder.lastPathComponent)
            let agreed = result.disagreements.isEmpty
            #expect(agreed, "\(result.disagreements.count) disagreements: \(result.disagreements.prefix(5))")
            if result.compared > 0 { guided[folder.lastPathComponent] = result.compared }
        }
        #expect(Set(guided.keys).isSuperset(of: ["osrm-portugal", "valhalla-berlin", "reroute"]), "\(guided)")
    }

    /// After every location update of a drive along the imported OSRM and Valhalla routes,
    /// rider and NavInfo agree.
    @Test(arguments: ["osrm", "valhalla"]) func importedDrivesAgree(router: String) async throws {
        let route: NavRoute
        let options: DriveScenario.Options
        if router == "osrm" {
            route = try OSRMImporter.route(from: try Data(contentsOf: sharedFixture("osrm/portugal_to_korea.json")))
            options = DriveScenario.Options(start: t0, interval: 5, maximumSeconds: 900)
        } else {
            route = try ValhallaImporter.route(from: try Data(contentsOf: sharedFixture("valhalla/route.json")))
            options = DriveScenario.Options(start: t0, interval: 2)
        }
        var scenario = try DriveScenario.scenario(route: route, name: router, source: nil, options: options)
        let updates = scenario.timeline.filter { $0.op == .updateVehicle }
        scenario.checkpoints = updates.enumerated().map { index, call in
            var checkpoint = Scenario.Checkpoint(name: String(format: "update-%04d", index), at: call.at)
            checkpoint.trip = "trip-1"
            return checkpoint
        }
        let result = try await agreement(of: scenario, name: router)
        let agreed = result.disagreements.isEmpty
        #expect(agreed, "\(result.disagreements.count) disagreements: \(result.disagreements.prefix(5))")
        // Every update was compared until the navigator arrived at the final destination
        // (then it stops and there is nothing left to agree on).
        let compared = result.checkpointsCompared.prefix { $0 }.count
        #expect(result.checkpointsCompared.dropFirst(compared).allSatisfy { !$0 })
        #expect(compared >= updates.count * 3 / 4, "\(compared) of \(updates.count) updates compared")
        #expect(result.compared >= 4 * compared)
    }
}
