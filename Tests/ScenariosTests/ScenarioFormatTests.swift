import Foundation
import Testing
import TripModel

@testable import Scenarios

@Suite struct ScenarioFormatTests {
    /// A scenario written and read back is the same scenario, one call per line.
    @Test func writesAndReadsBack() throws {
        var scenario = Scenario(name: "tiny", description: "d", provider: "p")
        scenario.vehicles["v1"] = json(#"{"vehicleState": "ONLINE"}"#)
        scenario.timeline = [
            Scenario.Call(at: at(0), op: .createVehicle, id: "v1"),
            Scenario.Call(at: at(1), op: .updateVehicle, id: "v1", updateMask: "vehicleState", body: json(#"{"vehicleState": "OFFLINE"}"#)),
        ]
        var checkpoint = Scenario.Checkpoint(name: "end", at: at(2))
        checkpoint.vehicle = "v1"
        scenario.checkpoints = [checkpoint]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try scenario.write(to: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("scenario.json"), encoding: .utf8)
        #expect(
            text.contains(
                #"    {"at":"2025-02-05T17:00:01Z","op":"updateVehicle","id":"v1","updateMask":"vehicleState","body":{"vehicleState":"OFFLINE"}}"#))
        let back = try Scenario.load(from: folder.appendingPathComponent("scenario.json"))
        #expect(back.timeline.count == 2)
        #expect(back.timeline[1].body == json(#"{"vehicleState": "OFFLINE"}"#))
        #expect(back.checkpoints.first?.vehicle == "v1")
        #expect(back.vehicles["v1"] == scenario.vehicles["v1"])
    }

    /// Broken scenarios are refused with the JSON path of the problem.
    @Test(arguments: [
        (#"{"format": 1, "name": "x", "provider": "p", "timline": []}"#, "scenario.json.timline: unknown field"),
        (#"{"format": 2, "name": "x", "provider": "p"}"#, "scenario.json.format: format 2 is not supported"),
        (
            #"{"format": 1, "name": "x", "provider": "p", "timeline": [{"at": "2025-02-05T17:00:01Z", "op": "createVehicle", "id": "v"}]}"#,
            "scenario.json.timeline[0].id: no body and no vehicle 'v' in 'vehicles'"
        ),
        (
            #"{"format": 1, "name": "x", "provider": "p", "timeline": [{"at": "2025-02-05T17:00:01Z", "op": "deleteTrip", "id": "t"}, {"at": "2025-02-05T17:00:00Z", "op": "deleteTrip", "id": "t"}]}"#,
            "scenario.json.timeline[1].at: 2025-02-05T17:00:00Z is earlier than the call before"
        ),
        (
            #"{"format": 1, "name": "x", "provider": "p", "checkpoints": [{"name": "../up", "at": "2025-02-05T17:00:00Z"}]}"#,
            "scenario.json.checkpoints[0].name: names are 1–64 letters"
        ),
        (
            #"{"format": 1, "name": "x", "provider": "p", "timeline": [{"at": "2025-02-05T17:00:00Z", "op": "fly", "id": "t"}]}"#,
            "scenario.json.timeline[0].op"
        ),
    ])
    func refusesBrokenScenarios(text: String, message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("scenario.json")
        try Data(text.utf8).write(to: file)
        let error = #expect(throws: ScenarioError.self) { try Scenario.load(from: file) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    /// JSON goldens compare numbers and times within tolerances and name the field that moved.
    @Test func jsonComparisonNamesFields() {
        let tolerances = Scenario.Tolerances(number: 0.01, seconds: 0.5)
        let expected = json(#"{"a": 1.0, "b": "2025-02-05T17:00:00Z", "c": "53.5s", "d": [1, 2], "e": "x"}"#)
        #expect(
            JSONComparison.differences(
                expected: expected, actual: json(#"{"a": 1.005, "b": "2025-02-05T17:00:00.2Z", "c": "53.9s", "d": [1, 2], "e": "x"}"#),
                tolerances: tolerances, root: "v"
            ).isEmpty)
        let differences = JSONComparison.differences(
            expected: expected, actual: json(#"{"a": 1.5, "b": "2025-02-05T17:00:02Z", "c": "53.5s", "d": [1], "f": true}"#),
            tolerances: tolerances, root: "v")
        #expect(
            differences == [
                "v.a: expected 1, got 1.5",
                "v.b: expected 2025-02-05T17:00:00Z, got 2025-02-05T17:00:02Z (2.0 s apart)",
                "v.d: expected 2 elements, got 1",
                "v.e: expected \"x\", missing",
                "v.f: not expected, got true",
            ])
    }
}
