import Foundation
import Geo
import Testing
import TripModel

@Suite struct EstimationTests {
    /// A road 500 m east, then 500 m north, then 500 m east: two right-angle turns.
    func zigzag() -> [LatLng] {
        let east = eastwardRoad(vertices: 6)
        let north = (1...5).map { LatLng(latitude: east[5].latitude + Double($0) * 100 / 111_195, longitude: east[5].longitude) }
        let again = eastwardRoad(from: east[5].longitude, vertices: 6).dropFirst().map {
            LatLng(latitude: north[4].latitude, longitude: $0.longitude)
        }
        return east + north + again
    }

    /// A vehicle at the start of `road` heading for a pickup at its end.
    func refreshed(
        road: [LatLng], paces: [RoadCellPace]? = nil, now: Timestamp = t0
    ) throws -> (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking) {
        var vehicle = try onlineVehicle()
        var update = Vehicle(name: "")
        update.currentRouteSegment = EncodedPolyline.encode(road)
        update.lastLocation = VehicleLocation(location: road[0])
        try vehicle.apply(update, mask: FieldMask("currentRouteSegment,lastLocation"), now: now)
        var trips = [try newTrip("t1", pickup: road[road.count - 1], dropoff: LatLng(latitude: 37.45, longitude: -121.99))]
        var tracking = RouteTracking()
        try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: now, locationUpdated: true), roadPaces: paces)
        return (vehicle, trips, tracking)
    }

    /// Right-angle corners are turns, found at the corner; a gentle bend and a straight road
    /// have none.
    @Test func turnsAreFoundAtCorners() throws {
        let measure = try #require(PolylineMeasure(zigzag()))
        let turns = measure.turnDistances()
        #expect(turns.count == 2)
        #expect(abs(turns[0] - 500) <= 15 && abs(turns[1] - 1_000) <= 15, "\(turns)")
        // 20° over a kilometre: a highway curve, not a turn.
        let bend = (0...10).map { i -> LatLng in
            let angle = Double(i) * 2 * .pi / 180
            return LatLng(latitude: 37.4 + sin(angle) * Double(i) * 100 / 111_195, longitude: -122 + Double(i) * 100 / 88_300)
        }
        #expect(try #require(PolylineMeasure(bend)).turnDistances().isEmpty)
        #expect(try #require(PolylineMeasure(eastwardRoad())).turnDistances().isEmpty)
    }

    /// Each turn ahead adds ``Estimation/turnSeconds`` to the time at the typical speed;
    /// turns behind the vehicle no longer count.
    @Test func turnsAheadAddTime() throws {
        let road = zigzag()
        let (vehicle, trips, tracking) = try refreshed(road: road)
        let length = try #require(PolylineMeasure(road)).totalMeters
        let expected = length / Estimation.freeFlowSpeed(.auto) + 2 * Estimation.turnSeconds
        // The route as stored (encoded to 1e-5°) is a few decimetres longer or shorter.
        #expect(abs(try #require(trips[0].remainingWaypoints[0].duration).seconds - expected) < 0.1)
        #expect(tracking.profile?.turns.count == 2)
        #expect(abs(Double(try #require(vehicle.remainingTimeSeconds)) - expected) <= 1)

        // Past the first corner: one turn left.
        var moved = vehicle
        var movedTrips = trips
        var movedTracking = tracking
        for (step, index) in [3, 5, 7].enumerated() {
            let time = t0.adding(seconds: Double(step + 1) * 20)
            var update = Vehicle(name: "")
            update.lastLocation = VehicleLocation(location: road[index], updateTime: time)
            try moved.apply(update, mask: FieldMask("lastLocation"), now: time)
            try JourneyState.refresh(vehicle: &moved, trips: &movedTrips, tracking: &movedTracking, trigger: .init(now: time, locationUpdated: true))
        }
        let rest = try length - #require(PolylineMeasure(road)).cumulativeMeters[7]
        let remaining = try #require(movedTrips[0].remainingWaypoints[0].duration).seconds
        #expect(abs(remaining - (rest / Estimation.freeFlowSpeed(.auto) + Estimation.turnSeconds)) < 0.5)
    }

    /// Where the fleet was observed on the route's road cells, the time moves towards the
    /// observed pace by how much was observed; paces older than a day are not used.
    @Test func observedRoadCellsMoveTheEstimate() throws {
        let road = eastwardRoad()
        let measure = try #require(PolylineMeasure(road))
        let cells = Set(RoadCell.along(measure).map(\.cell))
        #expect(cells.count >= 8 && cells.allSatisfy { $0.id & 3 == 1 }, "one cell per 90 m or so, all heading east")
        // Observed at 5 m/s over 600 m per cell: weight 600 / (600 + 300) = 2/3.
        let slow = cells.map { RoadCellPace(cell: $0, meters: 600, seconds: 120, updated: t0) }
        let (_, trips, tracking) = try refreshed(road: road, paces: slow)
        let model = 1 / Estimation.freeFlowSpeed(.auto)
        let blended = 2.0 / 3 * 0.2 + 1.0 / 3 * model
        let duration = try #require(trips[0].remainingWaypoints[0].duration).seconds
        #expect(abs(duration - 1_000 * blended) < 1, "\(duration)")
        #expect(tracking.profile?.observed.isEmpty == false)

        let stale = cells.map { RoadCellPace(cell: $0, meters: 600, seconds: 120, updated: t0.adding(seconds: -2 * 86_400)) }
        let (_, plain, _) = try refreshed(road: road, paces: stale)
        #expect(abs(try #require(plain[0].remainingWaypoints[0].duration).seconds - 1_000 * model) < 0.01)

        // A cell driven less than a pass's worth is left to the model.
        let thin = cells.map { RoadCellPace(cell: $0, meters: 50, seconds: 60, updated: t0) }
        let (_, unused, _) = try refreshed(road: road, paces: thin)
        #expect(abs(try #require(unused[0].remainingWaypoints[0].duration).seconds - 1_000 * model) < 0.01)
    }

    /// The cells to read are named when the route is new or its profile old, not otherwise.
    @Test func roadCellsAreReadOncePerRoute() throws {
        let (vehicle, _, tracking) = try refreshed(road: eastwardRoad())
        #expect(JourneyState.roadCellsToRead(vehicle: vehicle, tracking: tracking, now: t0.adding(seconds: 10)) == nil)
        let later = t0.adding(seconds: Estimation.profileLifetimeSeconds + 1)
        let cells = try #require(JourneyState.roadCellsToRead(vehicle: vehicle, tracking: tracking, now: later))
        #expect(cells == Array(Set(RoadCell.along(try #require(PolylineMeasure(eastwardRoad()))).map(\.cell))).sorted())
        #expect(JourneyState.roadCellsToRead(vehicle: vehicle, tracking: RouteTracking(), now: t0) != nil)
    }

    /// A road cell is a grid cell and a heading quarter.
    @Test func roadCells() {
        let here = LatLng(latitude: 37.40012, longitude: -122.00034)
        #expect(RoadCell(here, headingDegrees: 10) == RoadCell(here, headingDegrees: 350))
        #expect(RoadCell(here, headingDegrees: 10) != RoadCell(here, headingDegrees: 190))
        #expect(RoadCell(here, headingDegrees: 90).place == RoadCell(here, headingDegrees: 270).place)
        #expect(RoadCell(here, headingDegrees: 0) != RoadCell(LatLng(latitude: 37.40112, longitude: -122.00034), headingDegrees: 0))
        #expect(RoadCell(here, headingDegrees: -90) == RoadCell(here, headingDegrees: 270))
    }

    /// Driving is followed through a road cell and handed over once the vehicle leaves it;
    /// a jump, a long gap or waiting drops what was gathered.
    @Test func travelThroughRoadCells() throws {
        var tracking = RouteTracking()
        let road = eastwardRoad(vertices: 40, spacing: 10)
        func fix(_ i: Int, seconds: Double? = nil) -> VehicleLocation {
            VehicleLocation(location: road[i], heading: 90, speed: 10, updateTime: t0.adding(seconds: seconds ?? Double(i)))
        }
        var passes: [RoadCellPace] = []
        for i in 1..<40 {
            if let pass = JourneyState.observeTravel(from: fix(i - 1), to: fix(i), driving: true, tracking: &tracking, now: t0) {
                passes.append(pass)
            }
        }
        #expect(passes.count >= 3)
        for pass in passes {
            #expect(abs(pass.meters / pass.seconds - 10) < 0.1)
            #expect(pass.cell.id & 3 == 1)
        }
        #expect(Set(passes.map(\.cell)).count == passes.count)
        #expect(tracking.cellTravel != nil)
        // 600 m in one second: a GPS jump.
        let jump = JourneyState.observeTravel(
            from: fix(39), to: VehicleLocation(location: eastwardRoad(vertices: 8)[7], updateTime: t0.adding(seconds: 40)),
            driving: true, tracking: &tracking, now: t0)
        #expect(jump == nil && tracking.cellTravel == nil)
        #expect(JourneyState.observeTravel(from: fix(1), to: fix(2, seconds: 100), driving: true, tracking: &tracking, now: t0) == nil)
        #expect(JourneyState.observeTravel(from: fix(1), to: fix(2), driving: false, tracking: &tracking, now: t0) == nil)
        #expect(tracking.cellTravel == nil)
    }

    /// The vehicle's own pace changes the estimate only beyond the dead band, and then by
    /// what lies beyond it.
    @Test func ownPaceBeyondTheDeadBand() {
        var pace = TripPace(tripId: "t")
        #expect(pace.ratio == 1)
        pace.observedSeconds = 1_300
        pace.modelSeconds = 1_000
        #expect(pace.ratio == 1, "30% slower: the roads, not the vehicle")
        pace.observedSeconds = 3_300
        let observed = (3_300 + Estimation.ownPacePriorSeconds) / (1_000 + Estimation.ownPacePriorSeconds)
        #expect(abs(pace.ratio - observed / Estimation.ownPaceDeadBand) < 1e-9)
        pace.observedSeconds = 100
        pace.modelSeconds = 10_000
        #expect(pace.ratio == 1 / Estimation.ownPaceMaximumFactor)
    }

    /// A vehicle crawling far below its type's speed (a bicycle registered as a car) is
    /// estimated slower for the rest of its trip.
    @Test func crawlingVehicleIsEstimatedSlower() throws {
        let road = eastwardRoad(vertices: 41, spacing: 100)
        var (vehicle, trips, tracking) = try refreshed(road: road)
        let first = try #require(trips[0].remainingWaypoints[0].duration).seconds
        // 100 m every 25 s (4 m/s) for 15 minutes.
        for i in 1...36 {
            var update = Vehicle(name: "")
            let time = t0.adding(seconds: Double(i) * 25)
            update.lastLocation = VehicleLocation(location: road[i], updateTime: time)
            try vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
            try JourneyState.refresh(vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: time, locationUpdated: true))
        }
        let ratio = try #require(tracking.tripPace?.ratio)
        #expect(ratio > 1.2)
        let rest = try #require(trips[0].remainingWaypoints[0].duration).seconds
        #expect(abs(rest - 400 / Estimation.freeFlowSpeed(.auto) * ratio) < 0.5)
        #expect(abs(first - 4_000 / Estimation.freeFlowSpeed(.auto)) < 0.5)
    }
}
