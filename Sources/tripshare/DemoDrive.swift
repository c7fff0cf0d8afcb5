import Access
import Foundation
import JSON
import Scenarios
import TripModel
import TripServer

/// The demo's car: a scenario's calls (a driver app's and a provider's backend's) replayed
/// against a live server with the pauses between them shrunk by a speed factor, and each
/// location stamped with the time it is sent, so the rider sees a live car and `updateTime`
/// never runs ahead of the server's clock. The scenario is a ``DriveScenario`` along a route
/// with steps (DemoDrive+Itinerary, the default) or the first trip of a Fleet Engine log
/// (DemoDrive+FleetLog), with IDs renamed (`demo-car`, `demo-trip`, provider `demo`).
struct DemoDrive: Sendable {
    static let provider = "demo"
    static let vehicleId = "demo-car"
    static let tripId = "demo-trip"
    /// Labels the share page shows, as vehicle attributes.
    static let labels = ["vehicleLabel": "Blue Toyota Prius · 8ABC123", "driverLabel": "Sam (4.9 ★)"]

    /// The calls; their times set the pace (the checkpoints are not used).
    let scenario: Scenario
    /// What the drive is, for the printed summary ("a recorded Bay Area trip").
    let area: String

    /// A drive replaying `scenario`.
    init(scenario: Scenario, area: String) {
        self.scenario = scenario
        self.area = area
    }

    /// Seconds from the first call to the last at the scenario's pace.
    var durationSeconds: Double {
        guard let first = scenario.timeline.first, let last = scenario.timeline.last else { return 0 }
        return last.at.seconds(since: first.at)
    }

    /// Sends the calls to `base`, `speedFactor` times faster than the scenario's pace, and
    /// prints the rider's share link as soon as the trip exists.
    /// `keyFlags` are the `tripshare token` flags that find the server's key (printed in the hints);
    /// `grpc` is the gRPC listener's address, if there is one.
    func run(base: URL, grpc: String? = nil, authority: TokenAuthority, speedFactor: Double, keyFlags: String) async throws {
        let transport = HTTPTransport(baseURL: base)
        let server = try await authority.mint(Principal(role: .server, provider: Self.provider, subject: "demo"))
        try await removePreviousRun(transport, token: server)
        guard let first = scenario.timeline.first?.at else { return }
        let started = ContinuousClock.now
        for call in scenario.timeline {
            let due = started + .milliseconds(Int64(call.at.seconds(since: first) / speedFactor * 1000))
            try await Task.sleep(until: due, clock: .continuous)
            let request = scenario.request(for: call)
            var body = request.body
            // Stamped with the real time it is sent (a device's clock cannot run ahead of the
            // server's): at a speed factor above 1 the navigator sees a car that is really
            // that much faster, which is what the rider watches.
            if call.op == .updateVehicle, let sent = body, sent["lastLocation"] != nil {
                body = try Self.stamped(sent, at: Date())
            }
            let (status, answer) = try await transport.send(
                method: request.method, path: request.path, body: try body.map { Array(try JSONCoding.encode($0)) }, token: server)
            if status != call.expectStatus ?? 200 {
                Self.say("demo: \(request.method) \(request.path) answered \(status): \(String(decoding: answer.prefix(300), as: UTF8.self))")
            }
            switch call.op {
            case .createTrip where call.id == Self.tripId:
                try await announce(base: base, grpc: grpc, authority: authority, keyFlags: keyFlags, speedFactor: speedFactor)
            case .createVehicle, .createTrip: Self.say("demo: create \(call.id)")
            case .updateTrip:
                // The whole trip is in a logged update's body; the mask says what changed.
                if call.updateMask?.split(separator: ",").contains("tripStatus") == true, case .string(let status)? = call.body?["tripStatus"] {
                    Self.say("demo: \(status)")
                } else {
                    Self.say("demo: update trip")
                }
            default: break
            }
        }
        Self.say("demo: the trip is complete. The server keeps running; stop it with Ctrl-C.")
    }

    /// A demo run before this one (same data directory) left its car and trip: the trip is
    /// canceled if it is unfinished, then both are deleted, so the IDs can be used again.
    private func removePreviousRun(_ transport: HTTPTransport, token: String) async throws {
        let p = "/v1/providers/\(Self.provider)"
        let trip = "\(p)/trips/\(Self.tripId)"
        if try await transport.send(method: "DELETE", path: trip, body: nil, token: token).status == 400 {
            var cancel = Trip(name: "")
            cancel.tripStatus = .canceled
            let body = Array(try JSONCoding.encode(try JSONValue.body(cancel, fields: ["tripStatus"])))
            _ = try await transport.send(method: "PUT", path: "\(trip)?updateMask=tripStatus", body: body, token: token)
            _ = try await transport.send(method: "DELETE", path: trip, body: nil, token: token)
        }
        _ = try await transport.send(method: "DELETE", path: "\(p)/vehicles/\(Self.vehicleId)", body: nil, token: token)
    }

    private func announce(base: URL, grpc: String?, authority: TokenAuthority, keyFlags: String, speedFactor: Double) async throws {
        let rider = try await authority.mint(Principal(role: .consumer, provider: Self.provider, tripId: Self.tripId, subject: "demo-rider"))
        let driver = try await authority.mint(
            Principal(role: .driver, provider: Self.provider, vehicleId: Self.vehicleId, subject: "demo-driver"))
        let root = base.absoluteString
        Self.say(
            """

            tripshare demo: \(Self.vehicleId) drives \(Self.tripId) (\(area), \(Int((durationSeconds / 60).rounded())) min)\
            \(speedFactor == 1 ? "" : String(format: " %.1fx faster", speedFactor)), about \(Int(durationSeconds / speedFactor)) s.

            Rider's share page (valid for an hour):
              \(root)/share/\(rider)

            Driver's screen (valid for an hour):
              \(root)/drive/\(driver)

            Try the API:
              RIDER=\(rider)
              curl -s -H "Authorization: Bearer $RIDER" "\(root)/v1/providers/\(Self.provider)/trips/\(Self.tripId)"
              curl -s -H "Authorization: Bearer $RIDER" -o preview.png "\(root)/v1/providers/\(Self.provider)/trips/\(Self.tripId)/preview.png"
              curl -sN -H "Authorization: Bearer $RIDER" "\(root)/v1/providers/\(Self.provider)/trips/\(Self.tripId)/events"
              TOKEN=$(.build/release/tripshare token --role server --provider \(Self.provider)\(keyFlags))
              curl -s -H "Authorization: Bearer $TOKEN" "\(root)/v1/providers/\(Self.provider)/vehicles/\(Self.vehicleId)"
            \(grpc.map { "\nFleet Engine's own clients (gRPC, with $RIDER or $TOKEN; docs/grpc.md):\n  \($0)\n" } ?? "")
            """)
    }

    /// The update with its location (and raw fix) stamped at `time` (a scenario's times are
    /// made up or from the past), keeping the fields it had.
    static func stamped(_ body: JSONValue, at time: Date) throws -> JSONValue {
        var vehicle = try StrictJSONDecoder().decode(Vehicle.self, from: body, root: "vehicle")
        vehicle.lastLocation?.updateTime = Timestamp(time)
        vehicle.lastLocation?.serverTime = nil
        if vehicle.lastLocation?.rawLocationTime != nil { vehicle.lastLocation?.rawLocationTime = Timestamp(time) }
        guard case .object(let members) = body else { return body }
        return try .body(vehicle, fields: members.map(\.key))
    }

    /// Prints a line at once, also into a pipe or a file (the browser test reads the link
    /// as soon as it is printed; `print` would hold it in a buffer).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// The demo's input is unusable.
struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
