// The state of one scenario run: the server stack it talks to, the tokens it holds, where
// each vehicle's event log was last read, and what it has recorded so far.

import Access
import Foundation
import JSON
import TripModel
import TripServer
import TripStore

/// One run of a scenario against its private server.
struct RunSession {
    let scenario: Scenario
    let directory: URL
    let clock: ScriptedClock
    let store: any TripStore
    let transport: LocalTransport
    var tokens: TokenCache
    var run = ScenarioRun(artefacts: [], failures: [], calls: 0, renders: 0, seconds: 0)
    /// The last event ID recorded per vehicle, so each checkpoint records only what is new.
    var lastEventID: [String: Int64] = [:]

    init(
        scenario: Scenario, directory: URL, clock: ScriptedClock, store: any TripStore, transport: LocalTransport,
        tokens: TokenCache
    ) {
        self.scenario = scenario
        self.directory = directory
        self.clock = clock
        self.store = store
        self.transport = transport
        self.tokens = tokens
    }

    var providerPath: String { scenario.providerPath }

    /// Sends timeline call `index` at its time and checks the answer's status.
    mutating func send(_ index: Int, observe: (@Sendable (ScenarioRunner.CallResult) -> Void)?) async throws {
        let call = scenario.timeline[index]
        clock.set(call.at)
        let request = scenario.request(for: call)
        let body = try request.body.map { Array(try JSONCoding.encode($0)) }
        let token = try await tokens.token(Principal(role: .server, provider: request.provider, subject: "fixtures"))
        let (status, answer) = try await transport.send(method: request.method, path: request.path, body: body, token: token, extensions: .all)
        run.calls += 1
        observe?(ScenarioRunner.CallResult(index: index, call: call, status: status, body: answer))
        let expected = call.expectStatus ?? 200
        if status != expected {
            run.failures.append(
                "call \(index + 1) (\(call.op.rawValue) \(call.id) at \(call.at.rfc3339)): expected HTTP \(expected), got \(status): \(Self.message(answer))"
            )
        }
    }

    /// Records what `checkpoint` asks for at its time.
    mutating func record(_ checkpoint: Scenario.Checkpoint) async throws {
        clock.set(checkpoint.at)
        let name = checkpoint.name
        let provider = scenario.provider
        let server = Principal(role: .server, provider: provider)
        if let trip = checkpoint.trip,
            let view = try await get(tripViewPath(trip), as: Principal(role: .consumer, provider: provider, tripId: trip), name)
        {
            run.artefacts.append(Artefact(fileName: "\(name).trip.json", content: .json(view)))
        }
        if let vehicle = checkpoint.vehicle,
            let value = try await get("\(providerPath)/vehicles/\(Self.escape(vehicle))", as: server, name)
        {
            run.artefacts.append(Artefact(fileName: "\(name).vehicle.json", content: .json(value)))
        }
        if let vehicle = checkpoint.navInfo,
            let value = try await get("\(providerPath)/vehicles/\(Self.escape(vehicle))/navInfo", as: server, name)
        {
            run.artefacts.append(Artefact(fileName: "\(name).navinfo.json", content: .json(value)))
        }
        if let selection = checkpoint.events {
            run.artefacts.append(Artefact(fileName: "\(name).events.json", content: .json(try await events(selection))))
        }
        if let render = checkpoint.render {
            if let png = try await preview(render, checkpoint: name) {
                run.renders += 1
                run.artefacts.append(Artefact(fileName: "\(name).png", content: .png(png)))
            }
        }
    }

    func tripViewPath(_ trip: String) -> String {
        "\(providerPath)/trips/\(Self.escape(trip))?view=JOURNEY_SHARING_V1S"
    }

    /// GETs a JSON resource; a non-200 answer is recorded as a failure of the checkpoint.
    mutating func get(_ path: String, as principal: Principal, _ checkpoint: String) async throws -> JSONValue? {
        let token = try await tokens.token(principal)
        let (status, body) = try await transport.send(method: "GET", path: path, body: nil, token: token, extensions: .all)
        guard status == 200 else {
            run.failures.append("checkpoint \(checkpoint): GET \(path) answered \(status): \(Self.message(body))")
            return nil
        }
        return try JSONValue.parse(Data(body))
    }

    /// The vehicle's events since the last checkpoint that read them, without their IDs
    /// (which depend on nothing a reader cares about).
    mutating func events(_ selection: Scenario.EventSelection) async throws -> JSONValue {
        let after = lastEventID[selection.vehicle] ?? 0
        let logged = try await store.events(
            after: after, filter: .vehicle(provider: scenario.provider, vehicleId: selection.vehicle),
            limit: 1_000_000)
        if let last = logged.last { lastEventID[selection.vehicle] = last.id }
        let wanted = selection.types.map(Set.init)
        var out: [JSONValue] = []
        for event in logged where wanted?.contains(event.type) ?? true {
            out.append(
                .object([
                    ("time", .string(event.time.rfc3339)), ("type", .string(event.type)),
                    ("tripIds", .array(event.tripIds.map(JSONValue.string))), ("data", try JSONValue.parse(Data(event.data.utf8))),
                ]))
        }
        return .array(out)
    }

    /// The Google error message of an answer, or its start.
    static func message(_ body: [UInt8]) -> String {
        if let value = try? JSONParser.parse(body), case .string(let message)? = value["error"]?["message"] { return message }
        return String(decoding: body.prefix(200), as: UTF8.self)
    }

    static func escape(_ component: String) -> String { Scenario.escape(component) }
}
