import Geo
import Testing
import TripModel

/// The one progress model (DESIGN §5): where the vehicle's navigator has a route, the riders'
/// distances and times are the navigator's.
@Suite struct GuidedProgressTests {
    let road = eastwardRoad(vertices: 21)

    /// The vehicle 300 m along a 2 km road; trip t1's pickup at 1 km, its dropoff at the end.
    func refreshed(
        guidance: RouteProgress?, driverSeconds: Int? = nil
    ) throws -> (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking) {
        var vehicle = try onlineVehicle()
        var update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(Array(road[0...10]))
        update.lastLocation = VehicleLocation(location: road[3])
        update.remainingTimeSeconds = driverSeconds
        let mask = "currentRouteSegment,lastLocation" + (driverSeconds == nil ? "" : ",remainingTimeSeconds")
        try vehicle.apply(update, mask: FieldMask(mask), now: t0)
        var trips = [try newTrip("t1", pickup: road[10], dropoff: road[20])]
        var tracking = RouteTracking()
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking,
            trigger: .init(now: t0, locationUpdated: true, driverSentTime: driverSeconds != nil), guidance: guidance)
        return (vehicle, trips, tracking)
    }

    /// The navigator's view: a destination of its own at 500 m, then the pickup, then the dropoff.
    var guidance: RouteProgress {
        RouteProgress(
            position: road[3],
            destinations: [
                RouteProgress.Destination(location: road[5], distanceMeters: 200, durationSeconds: 30),
                RouteProgress.Destination(location: road[10], distanceMeters: 700, durationSeconds: 90),
                RouteProgress.Destination(location: road[20], distanceMeters: 1_700, durationSeconds: 250),
            ])
    }

    /// Each stop takes the navigator's distance and time from the stop before (the driver's
    /// own destination is driven through); the vehicle's remaining figures are the first leg's.
    @Test func stopsTakeTheNavigatorsFigures() throws {
        let (vehicle, trips, _) = try refreshed(guidance: guidance)
        let waypoints = trips[0].remainingWaypoints
        #expect(waypoints.map(\.distanceMeters) == [700, 1_000])
        #expect(waypoints.map { $0.duration?.seconds } == [90, 160])
        #expect(waypoints.map(\.eta) == [t0.adding(seconds: 90), t0.adding(seconds: 250)])
        #expect(trips[0].pickupTime == t0.adding(seconds: 90) && trips[0].dropoffTime == t0.adding(seconds: 250))
        #expect(vehicle.remainingDistanceMeters == 700 && vehicle.remainingTimeSeconds == 90)
        #expect(vehicle.etaToFirstWaypoint == t0.adding(seconds: 90))
        #expect(trips[0].remainingDistanceMeters == 700 && trips[0].remainingTimeToFirstWaypoint?.seconds == 90)
    }

    /// A stop the route does not reach, and every stop after it, is estimated.
    @Test func stopsOffTheRouteAreEstimated() throws {
        var short = guidance
        short.destinations.removeLast()
        let (_, trips, _) = try refreshed(guidance: short)
        let waypoints = trips[0].remainingWaypoints
        #expect(waypoints[0].duration?.seconds == 90)
        let straight = Earth.distance(road[10], road[20]) * Estimation.detourFactor
        #expect(waypoints[1].distanceMeters == Int(straight.rounded()))
        #expect(abs(try #require(waypoints[1].duration).seconds - straight / Estimation.freeFlowSpeed(.auto)) < 0.01)

        var elsewhere = guidance
        elsewhere.destinations = [RouteProgress.Destination(location: road[15], distanceMeters: 1_200, durationSeconds: 100)]
        let (vehicle, estimated, _) = try refreshed(guidance: elsewhere)
        #expect(estimated[0].remainingWaypoints[0].distanceMeters == 700, "measured on the route segment")
        #expect(estimated[0].remainingWaypoints[0].duration?.seconds != 100)
        #expect(vehicle.remainingDistanceMeters == 700)
    }

    /// A driver-sent remaining time still wins for the first leg (Fleet Engine's rule); the
    /// later legs keep the navigator's.
    @Test func driverSentTimeWinsForTheFirstLeg() throws {
        let (vehicle, trips, _) = try refreshed(guidance: guidance, driverSeconds: 120)
        #expect(vehicle.remainingTimeSeconds == 120)
        #expect(trips[0].remainingWaypoints.map { $0.duration?.seconds } == [120, 160])
        #expect(trips[0].dropoffTime == t0.adding(seconds: 280))
    }

    /// The path to the first stop starts where the navigator has the vehicle, not at the
    /// reported location beside the road.
    @Test func pathStartsAtTheNavigatorsPosition() throws {
        var snapped = guidance
        snapped.position = road[4]
        let (_, trips, tracking) = try refreshed(guidance: snapped)
        #expect(abs(tracking.distanceAlongMeters - 400) < 0.5)
        let path = try EncodedPolyline.decode(try #require(trips[0].remainingWaypoints[0].encodedPathToWaypoint))
        #expect(Earth.distance(path[0], road[4]) < 1)
    }
}
