import Access
import Foundation
import JSON
import Scenarios
import TripModel
import TripServer

/// The demo's car: calls a driver app and a provider's backend send, replayed against a live
/// server with the pauses between them shrunk by a speed factor, and each location stamped
/// with the time it is sent, so the rider sees a live car and `updateTime` never runs ahead
/// of the server's clock. The calls come from a route with steps (DemoDrive+Itinerary, the
/// default) or from the first trip of a Fleet Engine log's calls (FleetLogCalls, the path
/// `replay` and `import fleet-log` take too), with IDs renamed (`demo-car`, `demo-trip`,
/// provider `demo`).
struct DemoDrive: Sendable {
    static let provider = "demo"
    static let vehicleId = "demo-car"
    static let tripId = "demo-trip"
    /// Labels the share page shows, as vehicle attributes.
    static let labels = ["vehicleLabel": "Blue Toyota Prius · 8ABC123", "driverLabel": "Sam (4.9 ★)"]

    /// One call at its offset from the start, in recorded seconds.
    struct Step: Sendable {
        var offset: Double
        var method: String
        var path: String
        var body: [UInt8]
        var label: String
    }

    let steps: [Step]
    /// Seconds from the first call to the last at the recorded (or route's) pace.
    let durationSeconds: Double
    /// What the drive is, for the printed summary ("a recorded Bay Area trip").
    let area: String

    /// A drive from its calls.
    init(steps: [Step], durationSeconds: Double, area: String) {
        self.steps = steps
        self.durationSeconds = durationSeconds
        self.area = area
    }

    /// The first trip of `log` (from its creation to its last status change) as calls.
    init(log: FleetLog) throws {
        let calls = try FleetLogCalls(log: log).calls
        guard let created = calls.first(where: { $0.kind == .createTrip }) else { throw DemoError("the log holds no trip") }
        let tripId = created.id
        let start = created.time
        // The vehicle the trip was last assigned to, and the trip's last status change.
        var vehicleId = created.trip?.vehicleId
        var end: Timestamp?
        for call in calls where call.kind == .updateTrip && call.id == tripId {
            if call.updateMask?.contains("vehicleId") == true { vehicleId = call.trip?.vehicleId }
            if call.updateMask?.contains("tripStatus") == true { end = call.time }
        }
        guard let vehicleId, let end else { throw DemoError("the log holds no trip with a vehicle and status changes") }
        let p = "/v1/providers/\(Self.provider)"
        // The vehicle as the calls create it (from its first logged state when the log never does).
        guard var vehicle = calls.first(where: { $0.kind == .createVehicle && $0.id == vehicleId })?.vehicle else {
            throw DemoError("the log's calls never create vehicle \(vehicleId)")
        }
        vehicle.name = ""
        vehicle.supportedTripTypes = [.exclusive]
        vehicle.attributes = Self.labels.sorted { $0.key < $1.key }.map { Attribute(key: $0.key, stringValue: $0.value) }
        var steps = [
            Step(
                offset: 0, method: "POST", path: "\(p)/vehicles?vehicleId=\(Self.vehicleId)",
                body: try Self.encode(vehicle), label: "create \(Self.vehicleId)")
        ]
        // Where the car stood before the trip, so it appears on the map at once.
        if let before = calls.last(where: { call in
            call.kind == .updateVehicle && call.id == vehicleId && call.time <= start && call.vehicle?.lastLocation?.location != nil
        }) {
            var input = Vehicle(name: "")
            input.lastLocation = before.vehicle?.lastLocation
            steps.append(
                Step(
                    offset: 0, method: "PUT", path: "\(p)/vehicles/\(Self.vehicleId)?updateMask=lastLocation",
                    body: try Self.encode(input), label: "position \(Self.vehicleId)"))
        }
        // The trip as the log has it so far, for the waypoint each new route leads to, and
        // the last segment sent as a route.
        var trip = Trip(name: "")
        var routedSegment: String?
        for call in calls where call.time >= start && call.time <= end {
            let offset = call.time.seconds(since: start)
            let fields = call.updateMask?.fields ?? []
            switch call.kind {
            case .createTrip where call.id == tripId:
                guard var input = call.trip else { continue }
                trip = input
                trip.tripStatus = .new
                input.name = ""
                input.vehicleId = Self.vehicleId
                input.tripType = .exclusive
                steps.append(
                    Step(
                        offset: offset, method: "POST", path: "\(p)/trips?tripId=\(Self.tripId)", body: try Self.encode(input),
                        label: "create \(Self.tripId)"))
            case .updateTrip where call.id == tripId:
                guard var update = call.trip, let mask = call.updateMask else { continue }
                if mask.contains("tripStatus") { trip.tripStatus = update.tripStatus }
                if mask.contains("intermediateDestinationIndex") { trip.intermediateDestinationIndex = update.intermediateDestinationIndex }
                if mask.contains("intermediateDestinations") { trip.intermediateDestinations = update.intermediateDestinations }
                update.name = ""
                var sent = fields
                if mask.contains("vehicleId") { update.vehicleId = Self.vehicleId }
                if mask.contains("tripStatus") && update.tripStatus == .new { sent.removeAll { $0 == "tripStatus" } }
                guard !sent.isEmpty else { continue }
                steps.append(
                    Step(
                        offset: offset, method: "PUT", path: "\(p)/trips/\(Self.tripId)?updateMask=\(sent.joined(separator: ","))",
                        body: try Self.encode(update), label: mask.contains("tripStatus") ? update.tripStatus.rawValue : "update trip"))
                // The trip is over: the driver app ends guidance (the recorded driver ended it
                // short of the dropoff, where the navigator would still be counting down).
                if mask.contains("tripStatus"), update.tripStatus.isTerminal, routedSegment != nil {
                    steps.append(
                        Step(
                            offset: offset, method: "DELETE", path: "\(p)/vehicles/\(Self.vehicleId)/route",
                            body: [], label: "route"))
                    routedSegment = nil
                }
            case .updateVehicle where call.id == vehicleId:
                guard var update = call.vehicle else { continue }
                update.name = ""
                var sent = fields
                // A new route segment goes to the navigator as a route with steps, as a driver
                // app's navigatorDidChangeRoute would send it; the navigator sets the vehicle's
                // currentRouteSegment from it, so the update itself leaves that field alone.
                if sent.contains("currentRouteSegment"), let segment = update.currentRouteSegment {
                    if segment != routedSegment, let route = Self.route(along: segment, toward: Self.nextWaypoint(of: trip)) {
                        routedSegment = segment
                        steps.append(
                            Step(
                                offset: offset, method: "PUT", path: "\(p)/vehicles/\(Self.vehicleId)/route",
                                body: try Self.encode(route), label: "route"))
                    }
                    if segment == routedSegment {
                        sent.removeAll { $0 == "currentRouteSegment" }
                        update.currentRouteSegment = nil
                    }
                }
                let path = "\(p)/vehicles/\(Self.vehicleId)?updateMask=\(sent.joined(separator: ","))"
                steps.append(Step(offset: offset, method: "PUT", path: path, body: try Self.encode(update), label: "location"))
            default: break
            }
        }
        self.init(steps: steps, durationSeconds: end.seconds(since: start), area: "a trip recorded in a Fleet Engine log")
    }

    /// Sends the calls to `base`, `speedFactor` times faster than recorded, and prints the
    /// rider's share link as soon as the trip exists.
    /// `keyFlags` are the `tripshare token` flags that find the server's key (printed in the hints);
    /// `grpc` is the gRPC listener's address, if there is one.
    func run(base: URL, grpc: String? = nil, authority: TokenAuthority, speedFactor: Double, keyFlags: String) async throws {
        let transport = HTTPTransport(baseURL: base)
        let server = try await authority.mint(Principal(role: .server, provider: Self.provider, subject: "demo"))
        try await removePreviousRun(transport, token: server)
        let started = ContinuousClock.now
        for step in steps {
            let due = started + .milliseconds(Int64(step.offset / speedFactor * 1000))
            try await Task.sleep(until: due, clock: .continuous)
            var body = step.body
            // Stamped with the real time it is sent (a device's clock cannot run ahead of the
            // server's): at a speed factor above 1 the navigator sees a car that is really
            // that much faster, which is what the rider watches.
            if step.label == "location" || step.label.hasPrefix("position") {
                body = try Self.stamped(body, at: Date())
            }
            let (status, answer) = try await transport.send(method: step.method, path: step.path, body: body, token: server)
            if status != 200 {
                Self.say("demo: \(step.method) \(step.path) answered \(status): \(String(decoding: answer.prefix(300), as: UTF8.self))")
            }
            if step.label == "create \(Self.tripId)" {
                try await announce(base: base, grpc: grpc, authority: authority, keyFlags: keyFlags, speedFactor: speedFactor)
            } else if !["location", "route"].contains(step.label) && !step.label.hasPrefix("position") {
                Self.say("demo: \(step.label)")
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
            _ = try await transport.send(
                method: "PUT", path: "\(trip)?updateMask=tripStatus",
                body: Array(#"{"tripStatus": "CANCELED"}"#.utf8), token: token)
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

    /// The update with its location (and raw fix) stamped at `time` (recorded times are from the past).
    static func stamped(_ body: [UInt8], at time: Date) throws -> [UInt8] {
        var vehicle = try JSONCoding.decode(Vehicle.self, from: body, root: "vehicle")
        vehicle.lastLocation?.updateTime = Timestamp(time)
        vehicle.lastLocation?.serverTime = nil
        if vehicle.lastLocation?.rawLocationTime != nil { vehicle.lastLocation?.rawLocationTime = Timestamp(time) }
        return try encode(vehicle)
    }

    /// Prints a line at once, also into a pipe or a file (the browser test reads the link
    /// as soon as it is printed; `print` would hold it in a buffer).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func encode(_ value: some Encodable) throws -> [UInt8] { Array(try JSONCoding.encode(value)) }
}

/// The demo's input is unusable.
struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
