import Fleet
import Foundation
import Geo
import Navigation
import Synchronization
import TripModel
import TripStore

let start = Timestamp(secondsSince1970: 1_750_000_000)

func vehicleInput(at location: LatLng) -> Vehicle {
    var input = Vehicle(name: "")
    input.vehicleState = .online
    input.supportedTripTypes = [.exclusive, .shared]
    input.maximumCapacity = 4
    input.vehicleType = VehicleType(category: .auto)
    input.lastLocation = VehicleLocation(location: location)
    return input
}

func tripInput(vehicle: String, type: TripType, pickup: LatLng) -> Trip {
    var input = Trip(name: "")
    input.tripType = type
    input.pickupPoint = TerminalLocation(point: pickup)
    input.vehicleId = vehicle
    return input
}

func locationUpdate(_ point: LatLng, at time: Timestamp) -> Vehicle {
    var input = Vehicle(name: "")
    input.lastLocation = VehicleLocation(location: point, heading: 90, speed: 10, updateTime: time)
    return input
}
