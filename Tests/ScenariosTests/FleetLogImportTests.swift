import Foundation
import JSON
import Synchronization
import Testing
import TripModel

@testable import Scenarios

@Suite struct FleetLogImportTests {
    /// Importing each real log and replaying the scenario reproduces the logged trip
    /// statuses and vehicle positions exactly, and every call answers as Fleet Engine did.
    @Test(arguments: ["two-trips-bay-area.json", "jump-demo.json"])
    func roundTrip(file: String) async throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/\(file)")))
        let (scenario, _) = try FleetLogImporter.scenario(from: log, name: "x", source: nil)
        let mismatches = Mutex<[String]>([])
        let positions = Mutex(0)
        let statuses = Mutex(0)
        let run = try await ScenarioRunner(scenario: scenario, directory: try temporaryFolder()).run { result in
            guard result.status == 200, let body = result.call.body, let mask = result.call.updateMask else { return }
            let fields = mask.split(separator: ",")
            switch result.call.op {
            case .updateVehicle where fields.contains("lastLocation"):
                let sent = try? StrictJSONDecoder().decode(Vehicle.self, from: body, root: "sent").lastLocation?.location
                let answered = try? JSONCoding.decode(Vehicle.self, from: result.body, root: "answer").lastLocation?.location
                if let sent {
                    positions.withLock { $0 += 1 }
                    if sent != answered {
                        mismatches.withLock { $0.append("call \(result.index): vehicle at \(String(describing: answered)), sent \(sent)") }
                    }
                }
            case .updateTrip where fields.contains("tripStatus"):
                let sent = try? StrictJSONDecoder().decode(Trip.self, from: body, root: "sent").tripStatus
                let answered = try? JSONCoding.decode(Trip.self, from: result.body, root: "answer").tripStatus
                statuses.withLock { $0 += 1 }
                if sent != answered {
                    mismatches.withLock {
                        $0.append("call \(result.index): trip is \(String(describing: answered)), sent \(String(describing: sent))")
                    }
                }
            default: break
            }
        }
        #expect(run.failures.isEmpty, "\(run.failures.prefix(5))")
        #expect(mismatches.withLock { $0 }.isEmpty, "\(mismatches.withLock { $0.prefix(5) })")
        #expect(positions.withLock { $0 } > 400)
        #expect(statuses.withLock { $0 } >= 10)
        // The rider's view at each checkpoint shows the status the log recorded.
        for checkpoint in scenario.checkpoints {
            guard let artefact = run.artefacts.first(where: { $0.fileName == "\(checkpoint.name).trip.json" }),
                case .json(let view) = artefact.content, case .string(let status)? = view["tripStatus"]
            else {
                Issue.record("no trip view at \(checkpoint.name)")
                continue
            }
            #expect(checkpoint.name.hasSuffix(status.lowercased().replacingOccurrences(of: "_", with: "-")), "\(checkpoint.name): \(status)")
        }
    }

    /// The two-trips log has no create_vehicle: the import creates the vehicle from its first
    /// logged state, and makes a checkpoint after each of the 12 trip updates.
    @Test func twoTripsShape() throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/two-trips-bay-area.json")))
        let (scenario, report) = try FleetLogImporter.scenario(from: log, name: "two", source: nil)
        #expect(report.synthesizedVehicles == ["Vehicle_1"])
        #expect(scenario.timeline.count == 543)
        #expect(scenario.checkpoints.count == 12)
        #expect(scenario.timeline.first { $0.op == .createVehicle || $0.op == .updateVehicle }?.op == .createVehicle)
        #expect(scenario.notes.contains { $0.contains("Vehicle_1") })
    }

    /// jump-demo holds pickups and dropoffs only as handles: they are inferred from where the
    /// vehicle stood, and the notes say so; repeated creates expect ALREADY_EXISTS.
    @Test func jumpDemoInference() throws {
        let log = try FleetLog.parse(try Data(contentsOf: sharedFixture("fleet-engine-logs/jump-demo.json")))
        let (scenario, report) = try FleetLogImporter.scenario(from: log, name: "jump", source: nil)
        #expect(scenario.trips.count == 4)
        for (id, body) in scenario.trips {
            #expect(body["pickupPoint"]?["point"] != nil, "trip \(id) has no pickup")
        }
        #expect(report.inferredPlaces >= 4)
        #expect(scenario.notes.filter { $0.contains("pickupPoint is where its vehicle stood at ARRIVED_AT_PICKUP") }.count == 1)
        #expect(scenario.timeline.filter { $0.op == .createVehicle && $0.expectStatus == 409 }.count == 39)
        #expect(report.droppedFields.keys.contains { $0.hasSuffix("Handle") })
    }

    /// An export with an entry type the replay does not know counts it, and the notes list it.
    @Test func unknownEntryTypesAreCounted() throws {
        let text = """
            [{"timestamp": "2025-02-05T17:00:00Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.SearchVehiclesLog", "request": {}}},
             {"timestamp": "2025-02-05T17:00:01Z", "jsonPayload": {"@type": "type.googleapis.com/maps.fleetengine.v1.CreateVehicleLog",
              "request": {"vehicleId": "v1", "vehicle": {"name": "providers/p/vehicles/v1", "state": "VEHICLE_STATE_ONLINE"}}}}]
            """
        let (scenario, report) = try FleetLogImporter.scenario(from: try FleetLog.parse(Array(text.utf8)), name: "u", source: nil)
        #expect(report.skippedEntryTypes == ["SearchVehiclesLog": 1])
        #expect(scenario.notes.contains { $0.contains("SearchVehiclesLog ×1") })
        #expect(scenario.provider == "p")
    }
}
