import Foundation
import Testing

@testable import Scenarios

@Suite struct EdgeScenariosTests {
    /// The committed hand-made fixtures are what `tripshare fixtures edge` writes, byte for
    /// byte: a change to the builder shows up here before its goldens drift.
    @Test func committedFixturesAreTheBuildersOutput() throws {
        let scenarios = try EdgeScenarios.all()
        #expect(
            scenarios.map(\.name) == [
                "basic-trip", "night", "shared-ride", "intermediate-destinations", "cancel-mid-trip", "vehicle-offline", "reroute", "custom-style",
            ])
        for scenario in scenarios {
            let committed = try String(contentsOf: fixturesURL.appendingPathComponent("\(scenario.name)/scenario.json"), encoding: .utf8)
            #expect(try scenario.fileText() == committed, "\(scenario.name)")
            #expect(scenario.validationProblem() == nil, "\(scenario.name)")
        }
    }

    /// A drive at 10 m/s reports every 10 s, 100 m apart, and ends on the point asked for.
    @Test func steadyDrive() throws {
        var scene = EdgeScenarios.Scene("t", "t")
        let end = try scene.drive(0, "car-1", EdgeScenarios.street, from: 0, to: 250)
        let reports = scene.scenario.timeline
        #expect(end == 30)
        #expect(reports.count == 4)
        let points = reports.compactMap { call -> (Double, Double)? in
            guard case .number(let lat, _)? = call.body?["lastLocation"]?["location"]?["latitude"],
                case .number(let lng, _)? = call.body?["lastLocation"]?["location"]?["longitude"]
            else { return nil }
            return (lat, lng)
        }
        #expect(points.count == 4)
        #expect(abs(EdgeScenarios.along(EdgeScenarios.street, 250).point.longitude - points[3].1) < 1e-9)
        #expect(reports.allSatisfy { $0.body?["lastLocation"]?["heading"] == .number(90, integer: 90) })
    }
}
