// A Fleet Engine Cloud Logging export turned into a scenario: the log's API calls
// (FleetLogCalls, the one path from a log to calls, which also says what it inferred) become
// the scenario's timeline, and a checkpoint follows every trip update: the rider's view of
// that trip, its preview and the trip events since the previous one.

import Foundation
import JSON
import TripModel

/// Makes scenarios from Fleet Engine logs.
package enum FleetLogImporter {
    /// The scenario of `log`, named `name`; `source` says where the log came from.
    package static func scenario(from log: FleetLog, name: String, source: String?) throws -> (Scenario, FleetLogCalls.Report) {
        let plan = try FleetLogCalls(log: log)
        let providers = Set(plan.calls.map(\.provider))
        guard let provider = providers.sorted().first else { throw ScenarioError("the log holds no create or update calls") }
        guard providers.count == 1 else {
            throw ScenarioError("the log mixes providers \(providers.sorted()); a scenario has one")
        }
        let description = "Fleet Engine log \(name) replayed call by call, with the rider's view, preview and trip events after every trip update."
        var scenario = Scenario(name: name, description: description, provider: provider)
        scenario.source = source
        var tripNumbers: [String: Int] = [:]
        var tripStatus: [String: TripStatus] = [:]
        for call in plan.calls {
            let mask = call.updateMask?.fields.joined(separator: ",")
            switch call.kind {
            case .createVehicle where call.expectedStatus == 200:
                scenario.vehicles[call.id] = try json(call.vehicle)
                scenario.timeline.append(Scenario.Call(at: call.time, op: .createVehicle, id: call.id))
            case .createVehicle:
                scenario.timeline.append(
                    Scenario.Call(
                        at: call.time, op: .createVehicle, id: call.id, body: try json(call.vehicle),
                        expectStatus: call.expectedStatus))
            case .updateVehicle:
                scenario.timeline.append(
                    Scenario.Call(
                        at: call.time, op: .updateVehicle, id: call.id, updateMask: mask,
                        body: try json(call.vehicle)))
            case .createTrip:
                tripNumbers[call.id] = tripNumbers.count + 1
                let status = call.trip?.tripStatus ?? .unknown
                tripStatus[call.id] = status == .unknown ? .new : status
                scenario.trips[call.id] = try json(call.trip)
                scenario.timeline.append(Scenario.Call(at: call.time, op: .createTrip, id: call.id))
            case .updateTrip:
                scenario.timeline.append(
                    Scenario.Call(
                        at: call.time, op: .updateTrip, id: call.id, updateMask: mask,
                        body: try json(call.trip)))
                if call.updateMask?.contains("tripStatus") == true, let status = call.trip?.tripStatus { tripStatus[call.id] = status }
                let number = tripNumbers[call.id] ?? 0
                let status = (tripStatus[call.id] ?? .unknown).rawValue.lowercased().replacingOccurrences(of: "_", with: "-")
                var checkpoint = Scenario.Checkpoint(
                    name: String(format: "%02d-trip%d-%@", scenario.checkpoints.count + 1, number, status), at: call.time)
                checkpoint.trip = call.id
                checkpoint.render = Scenario.RenderRequest(trip: call.id)
                if let vehicleId = call.trip?.vehicleId ?? plan.lastVehicle(of: call.id, before: call.time) {
                    checkpoint.events = Scenario.EventSelection(vehicle: vehicleId, types: ["didUpdateTripStatus", "didUpdateRemainingWaypoints"])
                }
                scenario.checkpoints.append(checkpoint)
            }
        }
        scenario.notes = plan.notes
        return (scenario, plan.report)
    }

    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(JSONCoding.encode(value))
    }
}
