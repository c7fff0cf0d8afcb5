import Geo
import Testing
import TripModel

@Suite struct JourneyStateTests {
    /// A vehicle on a 1 km road heading to the pickup at its end, 300 m along.
    func scenario(driverDistance: Int? = nil, traffic: [RoadStretch]? = nil) throws -> (Vehicle, [Trip], RouteTracking) {
        let road = eastwardRoad()
        var vehicle = try onlineVehicle()
        var update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(road)
        update.lastLocation = VehicleLocation(location: LatLng(latitude: 37.40002, longitude: road[3].longitude))
        update.currentRouteSegmentTraffic = traffic.map(TrafficPolylineData.init)
        update.remainingDistanceMeters = driverDistance
        var mask = "currentRouteSegment,lastLocation,currentRouteSegmentTraffic"
        if driverDistance != nil { mask += ",remainingDistanceMeters" }
        try vehicle.apply(update, mask: FieldMask(mask), now: t0)
        var trips = [try newTrip("t1", pickup: road[10], dropoff: LatLng(latitude: 37.41, longitude: road[10].longitude))]
        var tracking = RouteTracking()
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking,
            trigger: .init(now: t0, locationUpdated: true, driverSentDistance: driverDistance != nil))
        return (vehicle, trips, tracking)
    }

    /// The vehicle snaps onto its route; the path to the pickup starts there and the
    /// remaining distance is what is left of the route.
    @Test func snapsAndTrims() throws {
        let (vehicle, trips, tracking) = try scenario()
        #expect(abs(tracking.distanceAlongMeters - 300) < 0.5)
        #expect(abs(tracking.crossTrackMeters - 2.2) < 0.2)
        #expect(vehicle.remainingDistanceMeters == 700)
        let first = try #require(trips[0].remainingWaypoints.first)
        #expect(first.waypointType == .pickup)
        #expect(first.distanceMeters == 700)
        let path = try EncodedPolyline.decode(try #require(first.encodedPathToWaypoint))
        #expect(path.count == 8)
        #expect(abs(path[0].latitude - 37.4) < 1e-5)
        // 700 m at the free-flow car speed.
        #expect(abs(try #require(first.duration).seconds - 700 / Estimation.freeFlowSpeed(.auto)) < 0.01)
        #expect(trips[0].etaToFirstWaypoint == first.eta)
        #expect(trips[0].pickupTime == first.eta)
        #expect(trips[0].remainingWaypoints.map(\.waypointType) == [.pickup, .dropOff])
        #expect(vehicle.currentTrips == ["t1"])
    }

    /// The driver's remaining distance wins over the measured one.
    @Test func driverValuesWin() throws {
        let (vehicle, trips, _) = try scenario(driverDistance: 742)
        #expect(vehicle.remainingDistanceMeters == 742)
        #expect(trips[0].remainingWaypoints[0].distanceMeters == 742)
    }

    /// Traffic stretches become intervals on the trimmed path, with vertices inserted where
    /// traffic changes, and slow the estimate.
    @Test func trafficIntervals() throws {
        let stretches = [
            RoadStretch(style: .slowerTraffic, offsetMeters: 450, lengthMeters: 100),
            RoadStretch(style: .trafficJam, offsetMeters: 800, lengthMeters: 100),
        ]
        let (_, trips, _) = try scenario(traffic: stretches)
        let first = trips[0].remainingWaypoints[0]
        let intervals = try #require(first.trafficToWaypoint?.speedReadingInterval)
        #expect(intervals.map(\.speed) == [.normal, .slow, .normal, .trafficJam, .normal])
        let path = try EncodedPolyline.decode(try #require(first.encodedPathToWaypoint))
        let measure = try #require(PolylineMeasure(path))
        let slow = intervals[1]
        #expect(abs(measure.cumulativeMeters[slow.startPolylinePointIndex] - 150) < 1)
        #expect(abs(measure.cumulativeMeters[slow.endPolylinePointIndex] - 250) < 1)
        #expect(intervals.last?.endPolylinePointIndex == path.count - 1)
        let expected =
            (500 + 100 * Estimation.trafficTimeFactor(.slow) + 100 * Estimation.trafficTimeFactor(.trafficJam))
            / Estimation.freeFlowSpeed(.auto)
        #expect(abs(try #require(first.duration).seconds - expected) < 0.01)
    }

    /// A leg the driver sent no route for is a straight stand-in, scaled by the detour factor.
    @Test func straightLegAfterRoute() throws {
        let (_, trips, _) = try scenario()
        let second = trips[0].remainingWaypoints[1]
        let pickup = eastwardRoad()[10]
        let straight = Earth.distance(pickup, LatLng(latitude: 37.41, longitude: pickup.longitude))
        #expect(second.distanceMeters == Int((straight * Estimation.detourFactor).rounded()))
        #expect(try EncodedPolyline.decode(try #require(second.encodedPathToWaypoint)).count == 2)
        #expect(trips[0].dropoffTime == second.eta)
    }

    /// On the next update the vehicle is found again from where it was.
    @Test func incrementalTracking() throws {
        var (vehicle, trips, tracking) = try scenario()
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: eastwardRoad()[6])
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: t0.adding(seconds: 30))
        let version = trips[0].remainingWaypointsVersion
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking,
            trigger: .init(now: t0.adding(seconds: 30), locationUpdated: true))
        #expect(abs(tracking.distanceAlongMeters - 600) < 0.5)
        #expect(vehicle.remainingDistanceMeters == 400)
        #expect(trips[0].remainingWaypointsVersion == version, "the stops did not change")
    }

    /// Shared rides keep the interleaving the provider set, dropping passed stops.
    @Test func sharedInterleaving() throws {
        var vehicle = try onlineVehicle()
        let p = { (lat: Double) in LatLng(latitude: lat, longitude: -122) }
        var trips = [
            try newTrip("a", pickup: p(37.40), dropoff: p(37.44), type: .shared),
            try newTrip("b", pickup: p(37.41), dropoff: p(37.43), type: .shared),
        ]
        var tracking = RouteTracking()
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0))
        #expect(vehicle.waypoints.map(\.tripId) == ["a", "a", "b", "b"])
        var order = Vehicle(name: "")
        order.waypoints = [("a", WaypointType.pickup), ("b", .pickup), ("b", .dropOff), ("a", .dropOff)].map {
            TripWaypoint(tripId: $0.0, waypointType: $0.1)
        }
        try vehicle.apply(order, mask: FieldMask("waypoints"), now: t0)
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, waypointsSet: true))
        #expect(vehicle.waypoints.map(\.tripId) == ["a", "b", "b", "a"])
        #expect(trips.first(where: { $0.tripId == "b" })?.remainingWaypoints.count == 3)
        // Rider a is picked up: its pickup leaves the list, the interleaving stays.
        trips[0].tripStatus = .enrouteToDropoff
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0))
        #expect(vehicle.waypoints.map { "\($0.tripId ?? "")\($0.waypointType == .pickup ? "+" : "-")" } == ["b+", "b-", "a-"])
    }

    /// A provider's order naming a trip the vehicle does not serve is refused.
    @Test func foreignTripInWaypoints() throws {
        var vehicle = try onlineVehicle()
        var order = Vehicle(name: "")
        order.waypoints = [TripWaypoint(tripId: "zzz", waypointType: .pickup)]
        try vehicle.apply(order, mask: FieldMask("waypoints"), now: t0)
        var trips: [Trip] = []
        var tracking = RouteTracking()
        #expect(throws: StatusError.invalid("vehicle.waypoints[0].tripId", "trip 'zzz' is not a current trip of this vehicle")) {
            try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, waypointsSet: true))
        }
        // Stored stops of a trip that has since finished simply drop out.
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0))
        #expect(vehicle.waypoints.isEmpty)
    }

    /// The rider's view hides other riders' stops' identity and location, and fields
    /// outside the journey-sharing set.
    @Test func journeySharingView() throws {
        var vehicle = try onlineVehicle()
        let p = { (lat: Double) in LatLng(latitude: lat, longitude: -122) }
        var trips = [
            try newTrip("a", pickup: p(37.40), dropoff: p(37.44), type: .shared),
            try newTrip("b", pickup: p(37.41), dropoff: p(37.43), type: .shared),
        ]
        trips[1].attributes = [Attribute(key: "vip", stringValue: "yes")]
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: p(37.39))
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: t0)
        var tracking = RouteTracking()
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true))
        let view = trips[1].rendered(as: .journeySharingV1S)
        // Rider a's stops come first (trips are served in the order they were assigned).
        #expect(view.remainingWaypoints.count == 4)
        #expect(view.remainingWaypoints[0].tripId == nil && view.remainingWaypoints[0].location == nil)
        #expect(view.remainingWaypoints[1].waypointType == .dropOff && view.remainingWaypoints[1].location == nil)
        #expect(view.remainingWaypoints[0].encodedPathToWaypoint != nil)
        #expect(view.remainingWaypoints[2].tripId == "b" && view.remainingWaypoints[2].location != nil)
        #expect(view.attributes.isEmpty && view.route.isEmpty && view.currentRouteSegment == nil)
        #expect(view.view == .journeySharingV1S)
        #expect(view.lastLocation?.location == p(37.39))
    }
}
