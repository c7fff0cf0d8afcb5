// A provider orders a shared vehicle's stops across its trips (UpdateVehicle's `waypoints`,
// or a trip's `vehicleWaypoints`). Fleet Engine's rule: the order holds every remaining
// waypoint of the vehicle's trips and no other, and keeps each trip's own order (its pickup
// before its intermediate destinations before its dropoff). Only the order is taken: the
// stops themselves come from the trips.

extension JourneyState {
    /// Checks a provider's order of the vehicle's stops against `trips`' remaining stops;
    /// errors name `field` and the index at fault.
    static func checkStopOrder(_ order: [TripWaypoint], trips: [Trip], field: String) throws(StatusError) {
        var expected: [String: [WaypointType?]] = [:]
        for trip in trips { expected[trip.tripId] = trip.remainingStops.map(\.waypointType) }
        var seen: [String: Int] = [:]
        for (i, waypoint) in order.enumerated() {
            let here = "\(field)[\(i)]"
            guard let id = waypoint.tripId else { throw .invalid("\(here).tripId", "required field is missing") }
            guard let types = expected[id] else {
                throw .invalid("\(here).tripId", "trip '\(id)' is not a current trip of this vehicle")
            }
            let k = seen[id, default: 0]
            let type = waypoint.waypointType
            let name = type?.rawValue ?? "untyped"
            guard k < types.count else {
                throw .invalid(here, "trip '\(id)' has no further \(name) waypoint: it has \(types.count) remaining")
            }
            if let type, type != types[k] {
                if types[(k + 1)...].contains(type) {
                    throw .invalid(
                        here, "the \(name) waypoint of trip '\(id)' comes before its \(types[k]?.rawValue ?? "earlier") waypoint")
                }
                throw .invalid(here, "trip '\(id)' has no remaining \(name) waypoint here")
            }
            seen[id] = k + 1
        }
        for trip in trips {
            let types = expected[trip.tripId] ?? []
            let k = seen[trip.tripId, default: 0]
            if k < types.count {
                throw .invalid(
                    field,
                    "misses the \(types[k]?.rawValue ?? "next") waypoint of trip '\(trip.tripId)': the order must hold "
                        + "every remaining waypoint of the vehicle's trips")
            }
        }
    }
}

extension Check {
    /// The shape of a provider's order of stops: bounded, each naming its trip and type.
    static func stopOrder(_ order: [TripWaypoint], _ path: String) throws(StatusError) {
        try count(order, path, max: Limits.maximumVehicleWaypoints)
        for (i, waypoint) in order.enumerated() {
            let here = "\(path)[\(i)]"
            try Check.waypoint(waypoint, here)
            if waypoint.tripId == nil { throw .invalid("\(here).tripId", "required field is missing") }
            if waypoint.waypointType == nil { throw .invalid("\(here).waypointType", "required field is missing") }
        }
    }
}

extension Trip {
    /// Removes and returns the order of stops the request set (`vehicleWaypoints`), nil when
    /// it set none: the trip is stored without it, and the vehicle takes it.
    package mutating func takeVehicleWaypoints() -> [TripWaypoint]? {
        defer { vehicleWaypoints = [] }
        return vehicleWaypoints.isEmpty ? nil : vehicleWaypoints
    }
}
