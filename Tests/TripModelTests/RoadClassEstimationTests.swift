import Foundation
import Geo
import Testing
import TripModel

/// The basemap's road classes and the estimates without a route (docs/estimates.md).
@Suite struct RoadClassEstimationTests {
    /// A vehicle at the start of a straight 1 km road heading for a pickup at its end, refreshed
    /// with what the map says about the road (`roads`).
    func refreshed(roads: RoadsAlong?) throws -> (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking) {
        let road = eastwardRoad()
        var vehicle = try onlineVehicle()
        var update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(road)
        update.lastLocation = VehicleLocation(location: road[0])
        try vehicle.apply(update, mask: FieldMask("currentRouteSegment,lastLocation"), now: t0)
        var trips = [try newTrip("t1", pickup: road[road.count - 1], dropoff: LatLng(latitude: 37.45, longitude: -121.99))]
        var tracking = RouteTracking()
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true), roads: roads)
        return (vehicle, trips, tracking)
    }

    /// A road the map calls primary is driven at its free-flow speed instead of the typical
    /// one; each traffic light on it adds its cost; the way it was made is the route segment.
    @Test func roadClassSetsTheSpeed() throws {
        let length = try #require(PolylineMeasure(eastwardRoad())).totalMeters
        let plain = try refreshed(roads: nil)
        #expect(abs(Double(try #require(plain.vehicle.remainingTimeSeconds)) - length / Estimation.freeFlowSpeed(.auto)) <= 1)
        #expect(plain.vehicle.estimateMethod == .routeSegment)

        let primary = RoadsAlong(stretches: [.init(from: 0, to: length, roadClass: .primary)], trafficSignals: [300, 700])
        let mapped = try refreshed(roads: primary)
        let expected = length / RoadClass.primary.freeFlowSpeed + 2 * Estimation.trafficSignalSeconds
        #expect(abs(Double(try #require(mapped.vehicle.remainingTimeSeconds)) - expected) <= 1)
        #expect(mapped.tracking.profile?.roads == primary)

        // Half of it known as a minor street, the rest at the typical speed.
        let half = RoadsAlong(stretches: [.init(from: 0, to: length / 2, roadClass: .minor)])
        let halfMapped = try refreshed(roads: half)
        let expectedHalf = length / 2 / RoadClass.minor.freeFlowSpeed + length / 2 / Estimation.freeFlowSpeed(.auto)
        #expect(abs(Double(try #require(halfMapped.vehicle.remainingTimeSeconds)) - expectedHalf) <= 1)
    }

    /// The roads read once stay with the route's profile on later updates (which pass none),
    /// and go when the route changes.
    @Test func roadsAreKeptWhileTheRouteStays() throws {
        let length = try #require(PolylineMeasure(eastwardRoad())).totalMeters
        let primary = RoadsAlong(stretches: [.init(from: 0, to: length, roadClass: .primary)])
        var (vehicle, trips, tracking) = try refreshed(roads: primary)
        #expect(JourneyState.routeToReadRoadsOf(vehicle: vehicle, tracking: tracking) == nil)
        let time = t0.adding(seconds: 10)
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: eastwardRoad()[2], updateTime: time)
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: time, locationUpdated: true))
        #expect(tracking.profile?.roads == primary)

        let later = t0.adding(seconds: 20)
        update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(Array(eastwardRoad().dropFirst(3)))
        try vehicle.apply(update, mask: FieldMask("currentRouteSegment"), now: later)
        #expect(JourneyState.routeToReadRoadsOf(vehicle: vehicle, tracking: tracking) != nil)
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: later))
        #expect(tracking.profile?.roads == nil)
    }

    /// Without a route the way to the stop is the straight line times the detour factor, at
    /// the typical speed without observations, and at the fleet's pace near the line with them.
    @Test func withoutARouteTheStraightLineAtTheFleetsPace() throws {
        var vehicle = try onlineVehicle()
        let start = LatLng(latitude: 37.4, longitude: -122.0)
        let stop = eastwardRoad()[10]
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: start)
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: t0)
        let trip = try newTrip("t1", pickup: stop, dropoff: LatLng(latitude: 37.45, longitude: -121.99))
        var trips = [trip]
        var tracking = RouteTracking()
        #expect(JourneyState.routeToReadRoadsOf(vehicle: vehicle, tracking: tracking) == nil)
        try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true))
        let meters = Earth.distance(start, stop) * Estimation.detourFactor
        #expect(vehicle.estimateMethod == .straightLine)
        #expect(abs(Double(try #require(vehicle.remainingDistanceMeters)) - meters) <= 1)
        #expect(abs(Double(try #require(vehicle.remainingTimeSeconds)) - meters / Estimation.freeFlowSpeed(.auto)) <= 1)

        // The fleet drove the corridor at 5 m/s: the cells near the line are asked for, and
        // their pace moves the estimate towards it.
        let cells = try #require(JourneyState.roadCellsToRead(vehicle: vehicle, trips: trips, tracking: RouteTracking(), now: t0))
        #expect(!cells.isEmpty)
        let near = RoadCell(start, headingDegrees: 90)
        #expect(cells.contains(near))
        let driven = RoadCellPace(cell: near, meters: 3_000, seconds: 600, updated: t0)
        var paced = RouteTracking()
        var pacedVehicle = vehicle
        var pacedTrips = [trip]
        try JourneyState.refresh(
            vehicle: &pacedVehicle, trips: &pacedTrips, tracking: &paced, trigger: .init(now: t0, locationUpdated: true),
            roadPaces: [driven])
        let prior = Estimation.roadCellPriorMeters
        let secondsPerMeter = (600 + prior / Estimation.freeFlowSpeed(.auto)) / (3_000 + prior)
        #expect(abs(Double(try #require(pacedVehicle.remainingTimeSeconds)) - meters * secondsPerMeter) <= 1)
        #expect(pacedVehicle.estimateMethod == .straightLine)
    }

    /// A mix of roads drives each class at its typical pace, lights and stop signs included, in
    /// the proportions they are there; too few roads say nothing.
    @Test func aRoadMixPacesItsClasses() throws {
        let minor = RoadClass.minor
        let expectedMinor =
            1 / minor.freeFlowSpeed
            + (minor.trafficSignalsPerKilometre * Estimation.trafficSignalSeconds
                + minor.stopSignsPerKilometre * Estimation.giveWaySeconds(speed: minor.freeFlowSpeed)) / 1000
        #expect(abs(minor.typicalSecondsPerMeter - expectedMinor) < 1e-12)
        #expect(RoadClass.primary.typicalSecondsPerMeter > 1 / RoadClass.primary.freeFlowSpeed)
        #expect(abs(RoadClass.motorway.typicalSecondsPerMeter - 1 / RoadClass.motorway.freeFlowSpeed) < 1e-12)

        let mix = RoadMix(meters: [.minor: 3_000, .primary: 1_000])
        let expected = 0.75 * RoadClass.minor.typicalSecondsPerMeter + 0.25 * RoadClass.primary.typicalSecondsPerMeter
        #expect(abs(try #require(mix.secondsPerMeter) - expected) < 1e-12)
        #expect(RoadMix(meters: [.minor: Estimation.roadMixMinimumMeters / 2]).secondsPerMeter == nil)
        #expect(RoadMix().secondsPerMeter == nil)
    }

    /// A vehicle no route is known for, driving a straight line to its stop through the map's
    /// minor streets: its way is asked for once per stop (not on every update), paced by the
    /// map's roads; then, driving at a third of that pace, its own pace counts in full (no dead
    /// band on a straight line). A bicycle keeps its own speed whatever the roads.
    @Test func withoutARouteTheMapsRoadsAndTheVehiclesOwnPace() throws {
        var vehicle = try onlineVehicle()
        let road = eastwardRoad()
        let stop = road[road.count - 1]
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: road[0], updateTime: t0)
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: t0)
        var trips = [try newTrip("t1", pickup: stop, dropoff: LatLng(latitude: 37.45, longitude: -121.99))]
        var tracking = RouteTracking()
        let line = try #require(JourneyState.lineToReadRoadsNear(vehicle: vehicle, trips: trips, tracking: tracking, now: t0))
        #expect(line.from == road[0] && line.to == stop)
        let streets = RoadMix(meters: [.minor: 5_000])
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: t0, locationUpdated: true), roadPaces: [],
            roadsNearLine: streets)
        let meters = Earth.distance(road[0], stop) * Estimation.detourFactor
        let secondsPerMeter = RoadClass.minor.typicalSecondsPerMeter
        #expect(abs(Double(try #require(vehicle.remainingTimeSeconds)) - meters * secondsPerMeter) <= 1)
        #expect(JourneyState.lineToReadRoadsNear(vehicle: vehicle, trips: trips, tracking: tracking, now: t0.adding(seconds: 10)) == nil)

        // Ten minutes of 10 s fixes: along the road at a third of the model's pace, then held up
        // halfway.
        let step = 10.0 / (3 * secondsPerMeter)
        let measure = try #require(PolylineMeasure(road))
        var time = t0
        for i in 1...60 {
            time = t0.adding(seconds: Double(i) * 10)
            update = Vehicle(name: "")
            update.lastLocation = VehicleLocation(
                location: measure.point(atDistance: min(Double(i) * step, measure.totalMeters * 0.5)), updateTime: time)
            try vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
            try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: time, locationUpdated: true))
        }
        let pace = try #require(tracking.tripPace)
        let expectedRatio = (pace.observedSeconds + Estimation.ownPacePriorSeconds) / (pace.modelSeconds + Estimation.ownPacePriorSeconds)
        #expect(pace.observedSeconds == 600 && expectedRatio > 2 && abs(pace.lineRatio - expectedRatio) < 1e-9)
        #expect(pace.lineRatio > pace.ratio)
        let remaining = Earth.distance(try #require(vehicle.lastLocation?.location), stop) * Estimation.detourFactor
        #expect(abs(Double(try #require(vehicle.remainingTimeSeconds)) - remaining * secondsPerMeter * pace.lineRatio) <= 1)

        var bicycle = try onlineVehicle()
        bicycle.vehicleType = VehicleType(category: .bicycle)
        update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: road[0], updateTime: t0)
        try bicycle.apply(update, mask: FieldMask("lastLocation"), now: t0)
        var bicycleTracking = RouteTracking()
        try JourneyState.refresh(
            vehicle: &bicycle, trips: &trips, tracking: &bicycleTracking, trigger: .init(now: t0, locationUpdated: true), roadPaces: [],
            roadsNearLine: streets)
        #expect(abs(Double(try #require(bicycle.remainingTimeSeconds)) - meters / Estimation.freeFlowSpeed(.bicycle)) <= 1)
    }
}
