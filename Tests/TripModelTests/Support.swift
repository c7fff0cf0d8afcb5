import Foundation
import Geo
import TripModel

let t0 = Timestamp(secondsSince1970: 1_738_774_951)

/// A straight road going east along 37.4° N, one vertex every `spacing` metres.
func eastwardRoad(from longitude: Double = -122.0, vertices: Int = 11, spacing: Double = 100) -> [LatLng] {
    let metresPerDegree = Earth.radiusMeters * .pi / 180 * cos(37.4 * .pi / 180)
    return (0..<vertices).map { LatLng(latitude: 37.4, longitude: longitude + Double($0) * spacing / metresPerDegree) }
}

func onlineVehicle(_ id: String = "v1") throws -> Vehicle {
    var input = Vehicle(name: "")
    input.vehicleState = .online
    input.supportedTripTypes = [.exclusive, .shared]
    input.maximumCapacity = 4
    input.vehicleType = VehicleType(category: .auto)
    return try Vehicle.created(from: input, provider: "p", id: id, now: t0)
}

func newTrip(_ id: String, pickup: LatLng, dropoff: LatLng, vehicle: String? = "v1", type: TripType = .exclusive) throws -> Trip {
    var input = Trip(name: "")
    input.pickupPoint = TerminalLocation(point: pickup)
    input.dropoffPoint = TerminalLocation(point: dropoff)
    input.tripType = type
    input.vehicleId = vehicle
    return try Trip.created(from: input, provider: "p", id: id, now: t0)
}
