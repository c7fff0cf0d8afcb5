// A vehicle's route segment as the stores keep it (issue 30): stored apart from the vehicle's
// row and written only when it changes, it must read back exactly as set, through every read
// (the vehicle, its trips, listings, searches, an update's answer), and go with the vehicle.

import Fleet
import Geo
import JSON
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let routeChecks: [Check] = [
        Check("a route segment reads back through every read", routeReadsBack),
        Check("a route segment changes, goes, and goes with its vehicle", routeChangesAndGoes),
    ]

    /// A road of `points` points about 2 m apart, heading north from `latitude`.
    static func straightRoad(points: Int, from latitude: Double = 37.39) -> [LatLng] {
        (0..<points).map { LatLng(latitude: latitude + Double($0) * 0.00002, longitude: -122 + 0.000001 * Double($0 % 14 - 7)) }
    }

    /// Metres from vertex `index` of `road` to its end along the route as stored (an encoded
    /// polyline, its vertices rounded to 1e-5 degrees).
    package static func metersLeft(on road: [LatLng], from index: Int) -> Double {
        guard let stored = try? EncodedPolyline.decode(EncodedPolyline.encode(road)), let measure = PolylineMeasure(stored) else { return -1 }
        return measure.totalMeters - measure.cumulativeMeters[index]
    }

    static func routeInput(_ road: [LatLng]) -> Vehicle {
        var input = Vehicle(name: "")
        input.currentRouteSegment = EncodedPolyline.encode(road)
        return input
    }

    /// Set with the vehicle, the route is what every read shows, after location updates too,
    /// and the remaining distance is measured along it from where the vehicle is.
    static func routeReadsBack(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        let road = straightRoad(points: 2_000)
        let segment = EncodedPolyline.encode(road)
        var input = Inputs.vehicle(at: road[0])
        input.currentRouteSegment = segment
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: input)
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1", pickup: road[road.count - 1]))
        var remaining: [Int] = []
        for step in [100, 700, 1_500] {
            let answer = try await fleet.updateVehicleJSON(
                provider: "p", id: "v1", input: Inputs.location(road[step].latitude, road[step].longitude), mask: FieldMask("lastLocation"),
                extensions: .none
            ).bytes()
            let answered = try JSONCoding.decode(Vehicle.self, from: answer, root: "answer")
            let stored = try await fleet.vehicle(provider: "p", id: "v1")
            #expect(answered.currentRouteSegment == segment, "the update's answer at step \(step)")
            #expect(stored.currentRouteSegment == segment, "the vehicle read at step \(step)")
            #expect(answered.remainingDistanceMeters == stored.remainingDistanceMeters)
            // The path to the pickup, which the stores cut from the route on reading (issue 30).
            #expect(stored.waypoints == answered.waypoints && answered.waypoints.first?.encodedPathToWaypoint != nil)
            remaining.append(try #require(stored.remainingDistanceMeters))
        }
        // What is left is measured along the route from where the vehicle is.
        #expect(remaining.count == 3 && zip(remaining, remaining.dropFirst()).allSatisfy { $0 > $1 })
        for (step, meters) in zip([100, 700, 1_500], remaining) {
            #expect(abs(Double(meters) - metersLeft(on: road, from: step)) < 2, "at step \(step): \(meters) m")
        }
        let trip = try await fleet.trip(provider: "p", id: "t1")
        #expect(trip.currentRouteSegment == segment)
        let vehicle = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(trip.remainingWaypoints.first?.encodedPathToWaypoint == vehicle.waypoints.first?.encodedPathToWaypoint)
        #expect(trip.remainingDistanceMeters == remaining[2])
        let listed = try await fleet.listVehicles(provider: "p", page: PageRequest(pageSize: 10, pageToken: nil))
        #expect(listed.items.map(\.currentRouteSegment) == [segment])
        #expect(listed.items.map(\.waypoints) == [vehicle.waypoints])
        let found = try await fleet.searchTrips(
            provider: "p", query: TripSearchQuery(vehicleId: "v1", activeTripsOnly: true, page: PageRequest(pageSize: 10, pageToken: nil)))
        #expect(found.items.map(\.currentRouteSegment) == [segment])
    }

    /// A new route replaces the old one for every read and for the estimates; clearing it
    /// leaves none; a vehicle made again after its deletion starts without the old one.
    static func routeChangesAndGoes(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        let first = straightRoad(points: 600)
        let second = straightRoad(points: 300, from: 37.40)
        var input = Inputs.vehicle(at: first[0])
        input.currentRouteSegment = EncodedPolyline.encode(first)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: input)
        _ = try await fleet.updateVehicle(
            provider: "p", id: "v1", input: Inputs.location(first[10].latitude, first[10].longitude), mask: FieldMask("lastLocation"))
        var moved = Inputs.location(second[0].latitude, second[0].longitude)
        moved.currentRouteSegment = EncodedPolyline.encode(second)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: moved, mask: FieldMask("lastLocation,currentRouteSegment"))
        _ = try await fleet.updateVehicle(
            provider: "p", id: "v1", input: Inputs.location(second[100].latitude, second[100].longitude), mask: FieldMask("lastLocation"))
        let onSecond = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(onSecond.currentRouteSegment == EncodedPolyline.encode(second))
        #expect(abs(Double(onSecond.remainingDistanceMeters ?? -1) - metersLeft(on: second, from: 100)) < 2)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: Vehicle(name: ""), mask: FieldMask("currentRouteSegment"))
        #expect(try await fleet.vehicle(provider: "p", id: "v1").currentRouteSegment == nil)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: routeInput(first), mask: FieldMask("currentRouteSegment"))
        try await fleet.deleteVehicle(provider: "p", id: "v1")
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle(at: first[0]))
        let again = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(again.currentRouteSegment == nil && again.remainingDistanceMeters == nil)
        let listed = try await fleet.listVehicles(provider: "p", page: PageRequest(pageSize: 10, pageToken: nil))
        #expect(listed.items.map(\.currentRouteSegment) == [nil])
    }
}
