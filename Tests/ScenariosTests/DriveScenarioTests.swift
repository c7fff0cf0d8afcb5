import Foundation
import JSON
import Navigation
import Testing
import TripModel

@testable import Scenarios

@Suite struct DriveScenarioTests {
    /// A 13,000 km OSRM route driven for ten minutes is cut after the step that passes the
    /// drive (so it fits a request body), still validates, and ends at a destination; the
    /// notes say so.
    @Test func longRouteIsCut() throws {
        let route = try OSRMImporter.route(from: try Data(contentsOf: sharedFixture("osrm/portugal_to_korea.json")))
        let scenario = try DriveScenario.scenario(
            route: route, name: "osrm", source: nil,
            options: .init(start: t0, maximumSeconds: 600, checkpoints: 3))
        guard case .object? = scenario.routes["route"], let cutJSON = scenario.routes["route"] else {
            Issue.record("no route")
            return
        }
        let cut = try StrictJSONDecoder().decode(NavRoute.self, from: cutJSON, root: "route")
        let points = try cut.validate()
        #expect(cut.steps.count < route.steps.count)
        #expect(cut.destinations.last?.polylinePointIndex == points.count - 1)
        #expect(try JSONCoding.encode(cutJSON).count < 1_000_000)
        #expect(scenario.notes.contains { $0.hasPrefix("the route is cut after step") })
        #expect(scenario.checkpoints.count == 3)
        #expect(!scenario.timeline.contains { $0.body?["tripStatus"] == .string("COMPLETE") })
    }

    /// A short route is driven to its end: location updates every interval, then COMPLETE,
    /// and the scenario replays with every call accepted.
    @Test func shortRouteDrivenToTheEnd() async throws {
        let route = try ValhallaImporter.route(from: try Data(contentsOf: sharedFixture("valhalla/route.json")))
        let scenario = try DriveScenario.scenario(route: route, name: "v", source: nil, options: .init(start: t0, interval: 2))
        let updates = scenario.timeline.filter { $0.op == .updateVehicle }
        #expect(updates.count > 10)
        #expect(scenario.timeline.last?.body?["tripStatus"] == .string("COMPLETE"))
        let run = try await ScenarioRunner(scenario: scenario, directory: try temporaryFolder()).run()
        #expect(run.failures.isEmpty, "\(run.failures.prefix(3))")
    }
}
