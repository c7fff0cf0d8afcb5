// The hand-made edge-case fixtures of Tests/Fixtures: short drives on a made-up street grid
// in Mountain View (EdgeScenarios+Grid), written as the REST calls a driver app and a
// provider's backend would make. Unlike DriveScenario's simulated drives along a route with
// steps, these move the car at a steady 10 m/s along bare polylines and send the route to
// the next stop as `currentRouteSegment`, as Fleet Engine's Driver SDK does, so the shared
// ride, stops, cancellation, going offline and rerouting can each be choreographed to the
// second. `tripshare fixtures edge` writes them; record their goldens afterwards with
// `tripshare fixtures run Tests/Fixtures/NAME --update`.

import Geo
import JSON
import Navigation
import TripModel

/// The hand-made edge-case scenarios.
package enum EdgeScenarios {
    /// When every edge-case drive starts.
    static let start = Timestamp(rfc3339: "2025-03-14T08:00:00Z") ?? Timestamp(microseconds: 0)
    /// The events the trip checkpoints record.
    static let tripEvents = ["didUpdateTripStatus", "didUpdateRemainingWaypoints"]

    /// Every edge-case scenario, in the order they were first written.
    package static func all() throws -> [Scenario] {
        let night = Scenario.RenderRequest(trip: "trip-1", style: "night", options: ["lighting": "lowLight"])
        var custom = try basicTrip(
            "custom-style",
            "The basic trip drawn with a style sent over the API (PUT /v1/styles/brand-x): a wide orange route, a purple pickup badge.",
            render: Scenario.RenderRequest(trip: "trip-1", style: "brand-x", options: ["width": "480", "height": "360"]))
        custom.scenario.styles["brand-x"] = .object([
            ("polylines", .object([("activeRoute", .object([("color", .string("#E8710A")), ("width", .number(9, integer: 9))]))])),
            ("markers", .object([("tripPickupPoint", .object([("etaLabel", .object([("backgroundColor", .string("#6A1B9A"))]))]))])),
        ])
        custom.call(0, .putStyle, "brand-x")
        return [
            try basicTrip("basic-trip", "One rider, picked up and dropped off on a short drive; the simplest fixture."),
            try basicTrip("night", "The basic trip drawn with the night style and low-light lighting.", render: night),
            try sharedRide(), try intermediateDestinations(), try cancelMidTrip(), try vehicleOffline(), try reroute(), custom,
        ].map(\.finished)
    }

    /// One rider: picked up 600 m along the street, dropped at its end.
    static func basicTrip(_ name: String, _ description: String, render: Scenario.RenderRequest? = nil) throws -> Scene {
        var s = Scene(name, description)
        let total = length(street)
        let pickup = along(street, 600).point
        let view = render ?? Scenario.RenderRequest(trip: "trip-1")
        try s.vehicle(0, "car-1", at: street[0])
        try s.trip(1, "trip-1", "car-1", pickup: pickup, dropoff: street[street.count - 1])
        // The driver app sends the route to the next stop only, as Fleet Engine's Driver SDK does.
        try s.route(2, "car-1", part(of: street, from: 0, to: 600))
        try s.status(3, "trip-1", .enrouteToPickup)
        var t = try s.drive(4, "car-1", street, from: 0, to: 300)
        s.checkpoint(t, "enroute", trip: "trip-1", render: view)
        t = try s.drive(t + 10, "car-1", street, from: 310, to: 600)
        try s.status(t + 1, "trip-1", .arrivedAtPickup)
        try s.route(t + 29, "car-1", part(of: street, from: 600, to: total))
        try s.status(t + 30, "trip-1", .enrouteToDropoff)
        t = try s.drive(t + 31, "car-1", street, from: 600, to: 1500)
        s.checkpoint(t, "to-dropoff", trip: "trip-1", render: view, events: .init(vehicle: "car-1", types: tripEvents))
        t = try s.drive(t + 10, "car-1", street, from: 1510, to: total)
        try s.status(t + 1, "trip-1", .complete)
        s.checkpoint(t + 2, "complete", trip: "trip-1", vehicle: "car-1", events: .init(vehicle: "car-1", types: tripEvents))
        return s
    }

    static func sharedRide() throws -> Scene {
        var s = Scene(
            "shared-ride",
            "Two riders share car-1: A is picked up first, B second; A is dropped off before B. Each rider sees the other's stops only by their type, on one unbroken path to its own next stop."
        )
        let total = length(street)
        let pickupA = along(street, 400).point
        let pickupB = along(street, 1000).point
        let dropoffA = along(street, 1800).point
        let end = street[street.count - 1]
        try s.vehicle(0, "car-1", at: street[0], tripTypes: [.shared, .exclusive])
        try s.trip(1, "trip-a", "car-1", pickup: pickupA, dropoff: dropoffA, type: .shared)
        try s.trip(2, "trip-b", "car-1", pickup: pickupB, dropoff: end, type: .shared, passengers: 2)
        var waypoints = Vehicle(name: "")
        waypoints.waypoints = [
            TripWaypoint(location: TerminalLocation(point: pickupA), tripId: "trip-a", waypointType: .pickup),
            TripWaypoint(location: TerminalLocation(point: pickupB), tripId: "trip-b", waypointType: .pickup),
            TripWaypoint(location: TerminalLocation(point: dropoffA), tripId: "trip-a", waypointType: .dropOff),
            TripWaypoint(location: TerminalLocation(point: end), tripId: "trip-b", waypointType: .dropOff),
        ]
        s.scenario.timeline.append(try .vehicleUpdate(s.time(3), "car-1", waypoints, mask: ["waypoints"]))
        try s.route(4, "car-1", street)
        try s.status(5, "trip-a", .enrouteToPickup)
        try s.status(5, "trip-b", .enrouteToPickup)
        var t = try s.drive(6, "car-1", street, from: 0, to: 200)
        s.checkpoint(t, "both-waiting", trip: "trip-b", vehicle: "car-1", render: .init(trip: "trip-b"))
        t = try s.drive(t + 10, "car-1", street, from: 210, to: 400)
        try s.status(t + 1, "trip-a", .arrivedAtPickup)
        try s.status(t + 20, "trip-a", .enrouteToDropoff)
        t = try s.drive(t + 21, "car-1", street, from: 400, to: 1000)
        try s.status(t + 1, "trip-b", .arrivedAtPickup)
        try s.status(t + 20, "trip-b", .enrouteToDropoff)
        s.checkpoint(t + 21, "both-aboard", trip: "trip-a", render: .init(trip: "trip-a"))
        t = try s.drive(t + 22, "car-1", street, from: 1000, to: 1800)
        try s.status(t + 1, "trip-a", .complete)
        s.checkpoint(t + 2, "a-dropped", trip: "trip-b", render: .init(trip: "trip-b"))
        t = try s.drive(t + 10, "car-1", street, from: 1810, to: total)
        try s.status(t + 1, "trip-b", .complete)
        s.checkpoint(t + 2, "done", trip: "trip-a", vehicle: "car-1")
        return s
    }

    static func intermediateDestinations() throws -> Scene {
        var s = Scene(
            "intermediate-destinations",
            "One rider with two stops on the way: the trip moves through ENROUTE_TO/ARRIVED_AT_INTERMEDIATE_DESTINATION with intermediateDestinationIndex 0 and 1."
        )
        let total = length(street)
        let pickup = along(street, 300).point
        let stops = [along(street, 900).point, along(street, 1500).point]
        try s.vehicle(0, "car-1", at: street[0])
        try s.trip(1, "trip-1", "car-1", pickup: pickup, dropoff: street[street.count - 1], stops: stops)
        try s.route(2, "car-1", street)
        try s.status(3, "trip-1", .enrouteToPickup)
        var t = try s.drive(4, "car-1", street, from: 0, to: 300)
        try s.status(t + 1, "trip-1", .arrivedAtPickup)
        try s.status(t + 20, "trip-1", .enrouteToIntermediateDestination, stop: 0)
        s.checkpoint(t + 21, "to-stop-1", trip: "trip-1", render: .init(trip: "trip-1"))
        t = try s.drive(t + 22, "car-1", street, from: 300, to: 900)
        try s.status(t + 1, "trip-1", .arrivedAtIntermediateDestination, stop: 0)
        try s.status(t + 60, "trip-1", .enrouteToIntermediateDestination, stop: 1)
        t = try s.drive(t + 61, "car-1", street, from: 900, to: 1500)
        try s.status(t + 1, "trip-1", .arrivedAtIntermediateDestination, stop: 1)
        s.checkpoint(t + 2, "at-stop-2", trip: "trip-1", render: .init(trip: "trip-1"))
        try s.status(t + 60, "trip-1", .enrouteToDropoff)
        t = try s.drive(t + 61, "car-1", street, from: 1500, to: total)
        try s.status(t + 1, "trip-1", .complete)
        s.checkpoint(t + 2, "complete", trip: "trip-1", events: .init(vehicle: "car-1", types: tripEvents))
        return s
    }

    static func cancelMidTrip() throws -> Scene {
        var s = Scene(
            "cancel-mid-trip",
            "The rider cancels while the car is on its way to the pickup; the car is free again, and a later status change is refused (FAILED_PRECONDITION)."
        )
        try s.vehicle(0, "car-1", at: street[0])
        try s.trip(1, "trip-1", "car-1", pickup: along(street, 1200).point, dropoff: street[street.count - 1])
        try s.route(2, "car-1", street)
        try s.status(3, "trip-1", .enrouteToPickup)
        var t = try s.drive(4, "car-1", street, from: 0, to: 500)
        s.checkpoint(t, "before-cancel", trip: "trip-1", render: .init(trip: "trip-1"))
        try s.status(t + 5, "trip-1", .canceled)
        var refused = try Scenario.Call.status(s.time(t + 6), "trip-1", .arrivedAtPickup)
        refused.expectStatus = 400
        s.scenario.timeline.append(refused)
        t = try s.drive(t + 10, "car-1", street, from: 510, to: 700)
        s.checkpoint(
            t, "canceled", trip: "trip-1", vehicle: "car-1", render: .init(trip: "trip-1"),
            events: .init(vehicle: "car-1", types: tripEvents))
        return s
    }

    static func vehicleOffline() throws -> Scene {
        var s = Scene(
            "vehicle-offline",
            "The car goes OFFLINE mid-trip (the driver's app loses its connection) and comes back ONLINE; the rider keeps seeing its last known position meanwhile."
        )
        let total = length(street)
        try s.vehicle(0, "car-1", at: street[0])
        try s.trip(1, "trip-1", "car-1", pickup: street[0], dropoff: street[street.count - 1])
        try s.route(2, "car-1", street)
        try s.status(3, "trip-1", .enrouteToPickup)
        try s.status(4, "trip-1", .arrivedAtPickup)
        try s.status(30, "trip-1", .enrouteToDropoff)
        var t = try s.drive(31, "car-1", street, from: 0, to: 800)
        try s.vehicleState(t + 5, "car-1", .offline)
        s.checkpoint(t + 120, "offline", trip: "trip-1", vehicle: "car-1", render: .init(trip: "trip-1"))
        try s.vehicleState(t + 180, "car-1", .online)
        t = try s.drive(t + 181, "car-1", street, from: 800, to: total)
        try s.status(t + 1, "trip-1", .complete)
        s.checkpoint(t + 2, "back-and-done", trip: "trip-1", vehicle: "car-1")
        return s
    }

    static func reroute() throws -> Scene {
        var s = Scene(
            "reroute",
            "The driver leaves the planned route at the third corner (a closed street): the navigator goes off route (navigationStatus OFF_ROUTE), then the app sends a new route through the detour (navigatorDidChangeRoute) and the rider's remaining distance grows."
        )
        let detourStart = along(detour, 400).point
        s.scenario.routes["planned"] = try bareRoute(street)
        s.scenario.routes["detour"] = try bareRoute([detourStart] + detour.dropFirst() + street.dropFirst(5))
        try s.vehicle(0, "car-1", at: street[0])
        try s.trip(1, "trip-1", "car-1", pickup: street[0], dropoff: street[street.count - 1])
        s.call(2, .setRoute, "car-1", route: "planned")
        try s.status(3, "trip-1", .enrouteToPickup)
        try s.status(4, "trip-1", .arrivedAtPickup)
        try s.status(20, "trip-1", .enrouteToDropoff)
        var t = try s.drive(21, "car-1", street, from: 0, to: length(Array(street.prefix(3))))
        let navigation = Scenario.EventSelection(
            vehicle: "car-1", types: ["navigatorDidChangeRoute", "didArriveAtWaypoint", "didUpdateTripStatus"])
        s.checkpoint(t, "planned", trip: "trip-1", navInfo: "car-1", render: .init(trip: "trip-1"), events: navigation)
        t = try s.drive(t + 5, "car-1", detour, from: 0, to: 400, every: 5)
        s.checkpoint(t, "off-route", trip: "trip-1", vehicle: "car-1", navInfo: "car-1", render: .init(trip: "trip-1"))
        s.call(t + 1, .setRoute, "car-1", route: "detour")
        s.checkpoint(t + 2, "rerouted", trip: "trip-1", navInfo: "car-1", render: .init(trip: "trip-1"), events: navigation)
        return s
    }

    /// A route with its steps left out (a bare polyline), ending at its last point.
    static func bareRoute(_ path: [LatLng]) throws -> JSONValue {
        let route = NavRoute(
            encodedPolyline: EncodedPolyline.encode(path), steps: [],
            destinations: [RouteDestination(location: path[path.count - 1], polylinePointIndex: path.count - 1)])
        return try .body(route, fields: ["encodedPolyline", "destinations"])
    }
}
