// A trip's `vehicleWaypoints` orders a SHARED vehicle's stops across its trips (issue 31):
// the vehicle's waypoints, every trip's remaining waypoints and their ETAs follow it; an order
// that drops a stop or puts a dropoff before its pickup is refused, naming the field.

import Fleet
import Geo
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let stopOrderChecks: [Check] = [
        Check("a trip's vehicleWaypoints orders the shared vehicle's stops", vehicleWaypointsOrderStops),
        Check("a vehicleWaypoints that drops a stop or reverses a trip is refused", vehicleWaypointsRefused),
    ]

    private static func point(_ longitude: Double) -> LatLng { LatLng(latitude: 37.39, longitude: longitude) }

    /// Two shared riders on a car driving east: A from -122.07 to -122.05, B from -122.06 to
    /// -122.04.
    private static func sharedRide(_ fleet: Fleet) async throws {
        var car = Inputs.vehicle(at: point(-122.08))
        car.supportedTripTypes = [.shared]
        _ = try await fleet.createVehicle(provider: "p", id: "car", input: car)
        var a = Inputs.trip(vehicle: "car", pickup: point(-122.07), dropoff: point(-122.05))
        a.tripType = .shared
        _ = try await fleet.createTrip(provider: "p", id: "a", input: a)
    }

    private static func sharedTripB() -> Trip {
        var b = Inputs.trip(vehicle: "car", pickup: point(-122.06), dropoff: point(-122.04))
        b.tripType = .shared
        return b
    }

    private static func order(_ stops: [(String, WaypointType)]) -> [TripWaypoint] {
        stops.map { TripWaypoint(tripId: $0.0, waypointType: $0.1) }
    }

    private static func labels(_ waypoints: [TripWaypoint]) -> [String] {
        waypoints.map { "\($0.tripId ?? "?")\($0.waypointType == .pickup ? "+" : $0.waypointType == .dropOff ? "-" : "~")" }
    }

    static func vehicleWaypointsOrderStops(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        try await sharedRide(fleet)
        // Without an order, a second trip's stops go after the first's.
        _ = try await fleet.createTrip(provider: "p", id: "b0", input: sharedTripB())
        #expect(labels(try await fleet.vehicle(provider: "p", id: "car").waypoints) == ["a+", "a-", "b0+", "b0-"])
        _ = try await fleet.updateTrip(provider: "p", id: "b0", input: Inputs.status(.canceled), mask: FieldMask("tripStatus"))

        // Created with the stops interleaved: A's pickup, B's pickup, A's dropoff, B's dropoff.
        var b = sharedTripB()
        b.vehicleWaypoints = order([("a", .pickup), ("b", .pickup), ("a", .dropOff), ("b", .dropOff)])
        let created = try await fleet.createTrip(provider: "p", id: "b", input: b)
        #expect(labels(created.vehicleWaypoints) == ["a+", "b+", "a-", "b-"], "the create answers the vehicle's order")
        #expect(created.vehicleWaypoints.first?.location?.point == point(-122.07), "the stops come from the trips")
        let vehicle = try await fleet.vehicle(provider: "p", id: "car")
        #expect(labels(vehicle.waypoints) == ["a+", "b+", "a-", "b-"])
        let etas = vehicle.waypoints.compactMap(\.eta)
        #expect(etas.count == 4 && zip(etas, etas.dropFirst()).allSatisfy { $0 < $1 }, "ETAs grow along the order: \(etas)")
        let tripA = try await fleet.trip(provider: "p", id: "a")
        let tripB = try await fleet.trip(provider: "p", id: "b")
        #expect(labels(tripA.remainingWaypoints) == ["a+", "b+", "a-"], "A's way runs to its own dropoff")
        #expect(labels(tripB.remainingWaypoints) == ["a+", "b+", "a-", "b-"])
        #expect(tripA.remainingWaypoints.map(\.eta) == Array(vehicle.waypoints.prefix(3).map(\.eta)))
        #expect(tripB.remainingWaypoints.map(\.eta) == vehicle.waypoints.map(\.eta))
        #expect(tripA.dropoffTime == vehicle.waypoints[2].eta && tripB.pickupTime == vehicle.waypoints[1].eta)
        #expect(tripA.vehicleWaypoints.isEmpty && tripB.vehicleWaypoints.isEmpty, "a read never returns the order")

        // An update reorders: B first, A's dropoff last.
        var reorder = Trip(name: "")
        reorder.vehicleWaypoints = order([("b", .pickup), ("a", .pickup), ("b", .dropOff), ("a", .dropOff)])
        let updated = try await fleet.updateTrip(provider: "p", id: "a", input: reorder, mask: FieldMask("vehicleWaypoints"))
        #expect(labels(updated.vehicleWaypoints) == ["b+", "a+", "b-", "a-"])
        #expect(labels(try await fleet.trip(provider: "p", id: "a").remainingWaypoints) == ["b+", "a+", "b-", "a-"])
        #expect(labels(try await fleet.trip(provider: "p", id: "b").remainingWaypoints) == ["b+", "a+", "b-"])

        // A's rider is picked up: its pickup leaves every list, the order stays.
        for status: TripStatus in [.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff] {
            _ = try await fleet.updateTrip(provider: "p", id: "a", input: Inputs.status(status), mask: FieldMask("tripStatus"))
        }
        #expect(labels(try await fleet.vehicle(provider: "p", id: "car").waypoints) == ["b+", "b-", "a-"])
    }

    static func vehicleWaypointsRefused(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        try await sharedRide(fleet)
        _ = try await fleet.createTrip(provider: "p", id: "b", input: sharedTripB())
        let vehicleBefore = try await fleet.vehicle(provider: "p", id: "car")
        func refused(_ stops: [(String, WaypointType)]) async throws -> StatusError {
            var input = Trip(name: "")
            input.vehicleWaypoints = order(stops)
            return try await #require(throws: StatusError.self) {
                try await fleet.updateTrip(provider: "p", id: "b", input: input, mask: FieldMask("vehicleWaypoints"))
            }
        }
        let dropped = try await refused([("a", .pickup), ("b", .pickup), ("b", .dropOff)])
        #expect(dropped.code == .invalidArgument)
        #expect(dropped.message.hasPrefix("trip.vehicleWaypoints: misses the DROP_OFF_WAYPOINT_TYPE waypoint of trip 'a'"), "\(dropped.message)")
        let reversed = try await refused([("a", .pickup), ("b", .dropOff), ("a", .dropOff), ("b", .pickup)])
        #expect(reversed.code == .invalidArgument)
        #expect(
            reversed.message
                == "trip.vehicleWaypoints[1]: the DROP_OFF_WAYPOINT_TYPE waypoint of trip 'b' comes before its PICKUP_WAYPOINT_TYPE waypoint")
        let foreign = try await refused([("a", .pickup), ("x", .pickup), ("b", .pickup), ("a", .dropOff), ("b", .dropOff)])
        #expect(foreign.message == "trip.vehicleWaypoints[1].tripId: trip 'x' is not a current trip of this vehicle")
        let extra = try await refused([("a", .pickup), ("a", .pickup), ("b", .pickup), ("a", .dropOff), ("b", .dropOff)])
        #expect(extra.message.hasPrefix("trip.vehicleWaypoints[1]: "), "\(extra.message)")
        #expect(try await fleet.vehicle(provider: "p", id: "car") == vehicleBefore, "a refused order changes nothing")
        // The vehicle's own waypoints follow the same rule.
        var partial = Vehicle(name: "")
        partial.waypoints = order([("b", .pickup), ("b", .dropOff)])
        let vehicleError = try await #require(throws: StatusError.self) {
            try await fleet.updateVehicle(provider: "p", id: "car", input: partial, mask: FieldMask("waypoints"))
        }
        #expect(vehicleError.message.hasPrefix("vehicle.waypoints: misses the PICKUP_WAYPOINT_TYPE waypoint of trip 'a'"))
    }
}
