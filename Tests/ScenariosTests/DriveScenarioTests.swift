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

    /// The demo's drive (the Helsinki route with a pickup on the way): the car reports every
    /// second, stands at the pickup while the rider gets in with the trip ARRIVED_AT_PICKUP,
    /// carries its labels as attributes, ends guidance at the dropoff, and every call is
    /// accepted, the route's removal included.
    @Test func pickupWaitLabelsAndEndOfGuidance() async throws {
        let route = try OSRMImporter.route(
            from: try Data(contentsOf: repositoryURL().appendingPathComponent("data-samples/helsinki-demo-route.osrm.json")))
        var options = DriveScenario.Options(start: t0, interval: 1, checkpoints: 1)
        options.pickupWaitSeconds = 20
        options.labels = ["vehicleLabel": "Blue car", "driverLabel": "Sam"]
        options.locationAccuracyMeters = 5
        options.endsGuidance = true
        let scenario = try DriveScenario.scenario(route: route, name: "demo", source: nil, options: options)

        let statuses = scenario.timeline.compactMap { call -> String? in
            guard case .string(let status)? = call.body?["tripStatus"] else { return nil }
            return status
        }
        #expect(statuses == ["ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"])
        #expect(scenario.timeline.last?.op == .deleteRoute)
        guard let arrived = scenario.timeline.first(where: { $0.body?["tripStatus"] == .string("ARRIVED_AT_PICKUP") }),
            let left = scenario.timeline.first(where: { $0.body?["tripStatus"] == .string("ENROUTE_TO_DROPOFF") })
        else { return }
        #expect(left.at.seconds(since: arrived.at) == 20)
        // While it waits, the car stands at the pickup (the trip's pickup point) at speed 0.
        let pickup = scenario.trips["trip-1"]?["pickupPoint"]?["point"]
        let waiting = scenario.timeline.filter { $0.op == .updateVehicle && $0.at >= arrived.at && $0.at < left.at }
        #expect(waiting.count == 4)
        #expect(
            waiting.allSatisfy { $0.body?["lastLocation"]?["location"] == pickup && $0.body?["lastLocation"]?["speed"] == .number(0, integer: 0) })
        // Driving, one report a second, each with the accuracy asked for.
        let driving = scenario.timeline.filter { $0.op == .updateVehicle && $0.at > left.at }
        #expect(zip(driving, driving.dropFirst()).allSatisfy { abs($1.at.seconds(since: $0.at) - 1) < 0.01 || $1.at == driving.last?.at })
        #expect(driving.allSatisfy { $0.body?["lastLocation"]?["latlngAccuracy"] == .number(5, integer: 5) })
        #expect(
            scenario.vehicles["car-1"]?["attributes"]
                == .array([
                    .object([("key", .string("driverLabel")), ("stringValue", .string("Sam"))]),
                    .object([("key", .string("vehicleLabel")), ("stringValue", .string("Blue car"))]),
                ]))

        let run = try await ScenarioRunner(scenario: scenario, directory: try temporaryFolder()).run()
        #expect(run.failures.isEmpty, "\(run.failures.prefix(3))")
        #expect(run.calls == scenario.timeline.count)
    }

    /// A pickup wait needs a route whose first leg ends at the pickup.
    @Test func pickupWaitNeedsTwoLegs() throws {
        let route = try ValhallaImporter.route(from: try Data(contentsOf: sharedFixture("valhalla/route.json")))
        var options = DriveScenario.Options(start: t0)
        options.pickupWaitSeconds = 20
        #expect(throws: ScenarioError.self) { try DriveScenario.scenario(route: route, name: "v", source: nil, options: options) }
    }

    /// The committed drive fixtures are what `tripshare fixtures drive` writes from their
    /// routes, byte for byte.
    @Test(arguments: [
        (
            "osrm-portugal", "osrm/portugal_to_korea.json", 5.0, 600.0 as Double?,
            "osrm/portugal_to_korea.json (Project-OSRM/osrm-backend, BSD-2-Clause; map data © OpenStreetMap contributors, ODbL)"
        ),
        (
            "valhalla-berlin", "valhalla/route.json", 2.0, nil,
            "valhalla/route.json (valhalla/valhalla docs, MIT; map data © OpenStreetMap contributors, ODbL)"
        ),
    ])
    func committedFixturesAreTheBuildersOutput(name: String, file: String, interval: Double, maximumSeconds: Double?, source: String) throws {
        let data = try Data(contentsOf: sharedFixture(file))
        let route = name.hasPrefix("osrm") ? try OSRMImporter.route(from: data) : try ValhallaImporter.route(from: data)
        let start = try #require(Timestamp(rfc3339: "2025-03-14T09:00:00Z"))
        let scenario = try DriveScenario.scenario(
            route: route, name: name, source: source, options: .init(start: start, interval: interval, maximumSeconds: maximumSeconds))
        let committed = try String(contentsOf: fixturesURL.appendingPathComponent("\(name)/scenario.json"), encoding: .utf8)
        #expect(try scenario.fileText() == committed)
    }
}
