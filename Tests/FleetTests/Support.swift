import Fleet
import Foundation
import Geo
import Navigation
import Synchronization
import TripModel
import TripStore

let start = Timestamp(secondsSince1970: 1_750_000_000)

/// A straight route east, `count` points 50 m apart, a turn every 10 points, ending at its
/// one destination, driven at 10 m/s.
func eastRoute(count: Int = 31) -> (route: NavRoute, points: [LatLng]) {
    let origin = LatLng(latitude: 52.52, longitude: 13.40)
    let dLng = 50 / LocalPlane.metersPerDegree / cos(origin.latitude * .pi / 180)
    let grid = (0..<count).map { LatLng(latitude: origin.latitude, longitude: origin.longitude + Double($0) * dLng) }
    let encoded = EncodedPolyline.encode(grid)
    let points = (try? EncodedPolyline.decode(encoded)) ?? grid
    let ends = [0] + Array(stride(from: 10, to: count - 1, by: 10)) + [count - 1]
    let steps = ends.enumerated().map { k, end in
        StepInfo(
            stepNumber: k, maneuver: k == 0 ? .depart : end == count - 1 ? .destination : .turnRight,
            simpleRoadName: "Street \(k)", polylineStartIndex: k == 0 ? 0 : ends[k - 1], polylineEndIndex: end)
    }
    let durations = (1..<count).map { Earth.distance(points[$0 - 1], points[$0]) / 10 }
    let route = NavRoute(
        encodedPolyline: encoded, steps: steps, segmentDurationsSeconds: durations,
        destinations: [RouteDestination(location: points[count - 1], polylinePointIndex: count - 1)],
        drivingSide: .right)
    return (route, points)
}

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
