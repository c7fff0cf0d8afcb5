import Fleet
import Geo
import Navigation
import Testing
import TripModel
import TripStore

/// The rules Fleet applies around the navigator: a new route sets the vehicle's route
/// segment and navigation status, and riders see the navigator's events only while the
/// vehicle serves their trip alone.
@Suite struct NavigationRulesTests {
    /// Setting a route starts guidance: the segment becomes the route's first leg and the
    /// status ENROUTE_TO_DESTINATION; clearing it ends guidance.
    @Test func routeSetsSegmentAndStatus() async throws {
        let fleet = Fleet(store: InMemoryTripStore(), clock: .fixed(start))
        let (route, points) = eastRoute()
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
        var (route, points) = eastRoute()
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        route.steps[1].polylineEndIndex = 500
        let error = try await #require(throws: FleetError.self) { try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route) }
        #expect(error.code == .invalidArgument && error.message.hasPrefix("route.steps[1]"))
        #expect(try await fleet.vehicle(provider: "p", id: "v1").navigationStatus != .enrouteToDestination)
        #expect(try await fleet.latestEventID() == 1)
    }

    /// The navigator's events reach the rider of an exclusive trip; on a shared ride (two
    /// trips) they name no trip, because steps and arrivals would show other riders' stops.
    @Test func navigatorEventsReachOnlyALoneTripsRider() async throws {
        let clock = TestClock()
        let fleet = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
        let (route, points) = eastRoute()
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: points[0]))
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", type: .shared, pickup: points[30]))
        _ = try await fleet.setRoute(provider: "p", vehicleId: "v1", route: route)
        func drive(_ index: Int) async throws -> [StoredEvent] {
            let before = try await fleet.latestEventID()
            clock.advance(seconds: 5)
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
}
