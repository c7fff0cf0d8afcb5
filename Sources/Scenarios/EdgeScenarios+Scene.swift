// How an edge-case scenario is written: calls at whole seconds from the common start, bodies
// from the model types (Scenario+Building), and drives at a steady speed along the grid.

import Geo
import JSON
import TripModel

extension EdgeScenarios {
    /// An edge-case scenario being written.
    struct Scene {
        var scenario: Scenario

        init(_ name: String, _ description: String) {
            scenario = Scenario(name: name, description: description, provider: "demo")
            scenario.source = "hand-made (tripshare fixtures edge)"
        }

        /// The scenario with its calls in time order (calls written at the same time keep their order).
        var finished: Scenario {
            var sorted = scenario
            sorted.timeline = scenario.timeline.enumerated()
                .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
            return sorted
        }

        /// `seconds` after the start.
        func time(_ seconds: Double) -> Timestamp { EdgeScenarios.start.adding(seconds: seconds) }

        mutating func call(_ t: Double, _ op: Scenario.Call.Operation, _ id: String, route: String? = nil) {
            scenario.timeline.append(Scenario.Call(at: time(t), op: op, id: id, route: route))
        }

        /// The driver app creates its vehicle where it stands.
        mutating func vehicle(_ t: Double, _ id: String, at point: LatLng, tripTypes: [TripType] = [.exclusive]) throws {
            scenario.vehicles[id] = try Scenario.vehicleBody(at: VehicleLocation(location: point, updateTime: time(t)), tripTypes: tripTypes)
            call(t, .createVehicle, id)
        }

        /// The provider's backend creates a trip.
        mutating func trip(
            _ t: Double, _ id: String, _ vehicle: String, pickup: LatLng, dropoff: LatLng, stops: [LatLng] = [],
            type: TripType = .exclusive, passengers: Int = 1
        ) throws {
            scenario.trips[id] = try Scenario.tripBody(
                vehicle: vehicle, pickup: pickup, dropoff: dropoff, stops: stops, type: type, passengers: passengers)
            call(t, .createTrip, id)
        }

        /// The provider's backend changes a trip's status (with the stop it concerns).
        mutating func status(_ t: Double, _ trip: String, _ status: TripStatus, stop: Int? = nil) throws {
            scenario.timeline.append(try .status(time(t), trip, status, intermediateDestinationIndex: stop))
        }

        /// The driver app sends the route to its next stop as `currentRouteSegment`.
        mutating func route(_ t: Double, _ vehicle: String, _ path: [LatLng]) throws {
            var update = Vehicle(name: "")
            update.currentRouteSegment = EncodedPolyline.encode(path)
            scenario.timeline.append(try .vehicleUpdate(time(t), vehicle, update, mask: ["currentRouteSegment"]))
        }

        /// The driver app goes offline or comes back.
        mutating func vehicleState(_ t: Double, _ vehicle: String, _ state: VehicleState) throws {
            var update = Vehicle(name: "")
            update.vehicleState = state
            scenario.timeline.append(try .vehicleUpdate(time(t), vehicle, update, mask: ["vehicleState"]))
        }

        /// Location reports every `every` seconds from `start` to `end` metres along `path` at
        /// `speed` m/s; returns the time of the last.
        mutating func drive(
            _ t0: Double, _ vehicle: String, _ path: [LatLng], from start: Double, to end: Double, speed: Double = 10, every: Double = 10
        ) throws -> Double {
            var t = t0
            var distance = start
            while true {
                let (point, heading) = EdgeScenarios.along(path, distance)
                scenario.timeline.append(
                    try .report(time(t), vehicle, VehicleLocation(location: point, heading: heading, speed: speed, updateTime: time(t))))
                if distance >= end { return t }
                t += every
                distance = min(end, distance + speed * every)
            }
        }

        /// What to record at `t`.
        mutating func checkpoint(
            _ t: Double, _ name: String, trip: String? = nil, vehicle: String? = nil, navInfo: String? = nil,
            render: Scenario.RenderRequest? = nil, events: Scenario.EventSelection? = nil
        ) {
            var checkpoint = Scenario.Checkpoint(name: name, at: time(t))
            checkpoint.trip = trip
            checkpoint.vehicle = vehicle
            checkpoint.navInfo = navInfo
            checkpoint.events = events
            checkpoint.render = render
            scenario.checkpoints.append(checkpoint)
        }
    }
}
