// The calls and create bodies the scenario builders (DriveScenario, EdgeScenarios) write, each
// encoded from the model types and cut to what a client sends: a renamed or retyped field
// breaks the build, not a fixture or the demo.

import Geo
import JSON
import TripModel

extension Scenario {
    /// The body that creates an online car for up to four riders, standing at `location`.
    package static func vehicleBody(
        at location: VehicleLocation, tripTypes: [TripType] = [.exclusive], labels: [String: String] = [:]
    ) throws -> JSONValue {
        var vehicle = Vehicle(name: "")
        vehicle.vehicleState = .online
        vehicle.supportedTripTypes = tripTypes
        vehicle.maximumCapacity = 4
        vehicle.vehicleType = VehicleType(category: .auto)
        vehicle.lastLocation = location
        vehicle.attributes = labels.sorted { $0.key < $1.key }.map { Attribute(key: $0.key, stringValue: $0.value) }
        return try .body(
            vehicle, fields: ["vehicleState", "supportedTripTypes", "maximumCapacity", "vehicleType", "lastLocation", "attributes"])
    }

    /// The body that creates a trip on `vehicle` from `pickup` to `dropoff` by way of `stops`.
    package static func tripBody(
        vehicle: String, pickup: LatLng, dropoff: LatLng, stops: [LatLng] = [], type: TripType = .exclusive, passengers: Int? = nil
    ) throws -> JSONValue {
        var trip = Trip(name: "")
        trip.tripType = type
        trip.vehicleId = vehicle
        trip.numberOfPassengers = passengers
        trip.pickupPoint = TerminalLocation(point: pickup)
        trip.dropoffPoint = TerminalLocation(point: dropoff)
        trip.intermediateDestinations = stops.map { TerminalLocation(point: $0) }
        return try .body(trip, fields: ["tripType", "vehicleId", "numberOfPassengers", "pickupPoint", "dropoffPoint", "intermediateDestinations"])
    }
}

extension Scenario.Call {
    /// A driver app's update of the fields `mask` names, taken from `update`.
    package static func vehicleUpdate(_ time: Timestamp, _ vehicle: String, _ update: Vehicle, mask: [String]) throws -> Self {
        Self(at: time, op: .updateVehicle, id: vehicle, updateMask: mask.joined(separator: ","), body: try .body(update, fields: mask))
    }

    /// A location report.
    package static func report(_ time: Timestamp, _ vehicle: String, _ location: VehicleLocation) throws -> Self {
        var update = Vehicle(name: "")
        update.lastLocation = location
        return try vehicleUpdate(time, vehicle, update, mask: ["lastLocation"])
    }

    /// A trip status change (with the index of the intermediate destination it concerns).
    package static func status(_ time: Timestamp, _ trip: String, _ status: TripStatus, intermediateDestinationIndex: Int? = nil) throws -> Self {
        var update = Trip(name: "")
        update.tripStatus = status
        update.intermediateDestinationIndex = intermediateDestinationIndex
        let mask = ["tripStatus"] + (intermediateDestinationIndex == nil ? [] : ["intermediateDestinationIndex"])
        return Self(at: time, op: .updateTrip, id: trip, updateMask: mask.joined(separator: ","), body: try .body(update, fields: mask))
    }
}
