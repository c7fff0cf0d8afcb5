// The demo's drive from a Fleet Engine log: the first trip of the log's calls (FleetLogCalls,
// the path `replay` and `import fleet-log` take too), from its creation to its last status
// change, as a scenario with the demo's IDs. Recorded route segments go to the navigator as
// routes with steps inferred from their turns (DemoDrive+Route), as a driver app's
// navigatorDidChangeRoute would send them.

import JSON
import Scenarios
import TripModel

extension DemoDrive {
    /// The first trip of `log` (from its creation to its last status change) as a scenario.
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
        var scenario = Scenario(
            name: "demo", description: "The first trip of a Fleet Engine log, with the demo's IDs.", provider: Self.provider)
        // The vehicle as the calls create it (from its first logged state when the log never does).
        guard var vehicle = calls.first(where: { $0.kind == .createVehicle && $0.id == vehicleId })?.vehicle else {
            throw DemoError("the log's calls never create vehicle \(vehicleId)")
        }
        vehicle.name = ""
        vehicle.supportedTripTypes = [.exclusive]
        vehicle.attributes = Self.labels.sorted { $0.key < $1.key }.map { Attribute(key: $0.key, stringValue: $0.value) }
        scenario.vehicles[Self.vehicleId] = try .body(vehicle)
        scenario.timeline.append(Scenario.Call(at: start, op: .createVehicle, id: Self.vehicleId))
        // Where the car stood before the trip, so it appears on the map at once.
        if let before = calls.last(where: { call in
            call.kind == .updateVehicle && call.id == vehicleId && call.time <= start && call.vehicle?.lastLocation?.location != nil
        }) {
            var input = Vehicle(name: "")
            input.lastLocation = before.vehicle?.lastLocation
            scenario.timeline.append(
                Scenario.Call(
                    at: start, op: .updateVehicle, id: Self.vehicleId, updateMask: "lastLocation",
                    body: try .body(input, fields: ["lastLocation"])))
        }
        // The trip as the log has it so far, for the waypoint each new route leads to, and
        // the last segment sent as a route.
        var trip = Trip(name: "")
        var routedSegment: String?
        for call in calls where call.time >= start && call.time <= end {
            let fields = call.updateMask?.fields ?? []
            switch call.kind {
            case .createTrip where call.id == tripId:
                guard var input = call.trip else { continue }
                trip = input
                trip.tripStatus = .new
                input.name = ""
                input.vehicleId = Self.vehicleId
                input.tripType = .exclusive
                scenario.trips[Self.tripId] = try .body(input)
                scenario.timeline.append(Scenario.Call(at: call.time, op: .createTrip, id: Self.tripId))
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
                scenario.timeline.append(
                    Scenario.Call(
                        at: call.time, op: .updateTrip, id: Self.tripId, updateMask: sent.joined(separator: ","), body: try .body(update)))
                // The trip is over: the driver app ends guidance (the recorded driver ended it
                // short of the dropoff, where the navigator would still be counting down).
                if mask.contains("tripStatus"), update.tripStatus.isTerminal, routedSegment != nil {
                    scenario.timeline.append(Scenario.Call(at: call.time, op: .deleteRoute, id: Self.vehicleId))
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
                        let name = "route-\(scenario.routes.count + 1)"
                        scenario.routes[name] = try .body(route)
                        scenario.timeline.append(Scenario.Call(at: call.time, op: .setRoute, id: Self.vehicleId, route: name))
                    }
                    if segment == routedSegment {
                        sent.removeAll { $0 == "currentRouteSegment" }
                        update.currentRouteSegment = nil
                    }
                }
                scenario.timeline.append(
                    Scenario.Call(
                        at: call.time, op: .updateVehicle, id: Self.vehicleId, updateMask: sent.joined(separator: ","),
                        body: try .body(update)))
            default: break
            }
        }
        self.init(scenario: scenario, area: "a trip recorded in a Fleet Engine log")
    }
}
