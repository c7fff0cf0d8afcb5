import Fleet
import Geo
import Navigation
import NavigationTesting
import Testing
import TripModel
import TripModelTesting
import TripStore

/// The rules Fleet applies around the navigator: a new route sets the vehicle's route
/// segment and navigation status, and riders see the navigator's events only while the
/// vehicle serves their trip alone.
@Suite struct NavigationRulesTests {
    /// Setting a route starts guidance: the segment becomes the route's first leg and the
    /// status ENROUTE_TO_DESTINATION; clearing it ends guidance.
    @Test func routeSetsSegmentAndStatus() async throws {
        let fleet = Fleet(store: InMemoryTripStore(), clock: .fixed(start))
        let route = StraightRoute.streets(count: 31)
        let points = StraightRoute.points(of: route)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        let info = try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route)
        #expect(info.navState == .enroute)
        let routed = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(routed.navigationStatus == .enrouteToDestination)
        let segment = try #require(routed.currentRouteSegment)
        #expect(try RouteGeometry.decode(segment, path: "segment") == points)
        try await fleet.clearRoute(provider: "p", vehicleId: "v1")
        #expect(try await fleet.vehicle(provider: "p", id: "v1").navigationStatus == .noGuidance)
        #expect(try await fleet.navInfo(provider: "p", vehicleId: "v1").navState == .stopped)
    }

    /// A route that fails validation is refused with the field at fault, and nothing changes.
    @Test func invalidRouteNamesTheField() async throws {
        let fleet = Fleet(store: InMemoryTripStore(), clock: .fixed(start))
        var route = StraightRoute.streets(count: 31)
        let points = StraightRoute.points(of: route)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        route.steps[1].polylineEndIndex = 500
        let error = try await #require(throws: StatusError.self) { try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route) }
        #expect(error.code == .invalidArgument && error.message.hasPrefix("route.steps[1]"))
        #expect(try await fleet.vehicle(provider: "p", id: "v1").navigationStatus != .enrouteToDestination)
        #expect(try await fleet.latestEventID() == 1)
    }

    /// The navigator's events reach the rider of an exclusive trip; on a shared ride (two
    /// trips) they name no trip, because steps and arrivals would show other riders' stops.
    @Test func navigatorEventsReachOnlyALoneTripsRider() async throws {
        let clock = ManualClock(start)
        let fleet = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
        let route = StraightRoute.streets(count: 31)
        let points = StraightRoute.points(of: route)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", type: .shared, pickup: points[30]))
        _ = try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route)
        func drive(_ index: Int) async throws -> [StoredEvent] {
            let before = try await fleet.latestEventID()
            clock.advance(by: 5)
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: locationUpdate(points[index], at: clock.wallClock.now),
                mask: FieldMask("lastLocation"))
            let navigatorNames = Set(["didUpdateLocation", "didUpdateRemainingTime", "didUpdateRemainingDistance", "didUpdateNavInfo"])
            return try await fleet.events(after: before, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100)
                .filter { navigatorNames.contains($0.type) }
        }
        let alone = try await drive(5)
        #expect(!alone.isEmpty && alone.allSatisfy { $0.tripIds == ["t1"] })
        _ = try await fleet.createTrip(provider: "p", id: "t2", input: tripInput(vehicle: "v1", type: .shared, pickup: points[20]))
        let shared = try await drive(10)
        #expect(!shared.isEmpty && shared.allSatisfy { $0.tripIds.isEmpty })
    }

    /// A route through the pickup to the dropoff: before the pickup the rider's path to the
    /// dropoff follows the route's second leg (not a straight line); once the navigator has
    /// the car past the pickup, the vehicle's route segment becomes that leg.
    @Test func laterLegsFollowTheNavigatorsRoute() async throws {
        let clock = ManualClock(start)
        let fleet = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
        var route = StraightRoute.streets(count: 41)
        let points = StraightRoute.points(of: route)
        // The route runs straight: its leg is told from a two-point stand-in by its vertices.
        route.destinations = [
            RouteDestination(location: points[20], polylinePointIndex: 20),
            RouteDestination(location: points[40], polylinePointIndex: 40),
        ]
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        var input = tripInput(vehicle: "v1", type: .exclusive, pickup: points[20])
        input.dropoffPoint = TerminalLocation(point: points[40])
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: input)
        _ = try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route)

        let before = try await fleet.trip(provider: "p", id: "t1").remainingWaypoints
        #expect(before.map(\.waypointType) == [.pickup, .dropOff])
        let toDropoff = try EncodedPolyline.decode(try #require(before.last?.encodedPathToWaypoint))
        #expect(toDropoff == Array(points[20...40]))
        #expect(abs(Double(try #require(before.last?.distanceMeters)) - 1000) < 5)

        // 50 m every 5 s: the 10 m/s the route is timed at.
        func drive(_ indices: ClosedRange<Int>) async throws {
            for index in indices {
                clock.advance(by: 5)
                _ = try await fleet.updateVehicle(
                    provider: "p", id: "v1", input: locationUpdate(points[index], at: clock.wallClock.now), mask: FieldMask("lastLocation"))
            }
        }
        try await drive(1...20)
        let segment = try #require(try await fleet.vehicle(provider: "p", id: "v1").currentRouteSegment)
        #expect(try EncodedPolyline.decode(segment) == Array(points[20...40]))

        for next in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff] {
            var status = Trip(name: "")
            status.tripStatus = next
            _ = try await fleet.updateTrip(provider: "p", id: "t1", input: status, mask: FieldMask("tripStatus"))
        }
        try await drive(21...25)
        let after = try await fleet.trip(provider: "p", id: "t1").remainingWaypoints
        #expect(after.map(\.waypointType) == [.dropOff])
        let path = try EncodedPolyline.decode(try #require(after.first?.encodedPathToWaypoint))
        #expect(path.count == 16 && Earth.distance(path[0], points[25]) < 1 && path.last == points[40])
        #expect(abs(Double(try #require(after.first?.distanceMeters)) - 750) < 5)
    }
}
