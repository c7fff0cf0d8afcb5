import Foundation
import Geo
import Testing
import TripModel

/// What the fleet's legs teach the estimate without a route (docs/estimates.md): the detour its
/// vehicles drove in an area.
@Suite struct FleetLegTests {
    /// A place `north` and `east` metres from `origin`.
    static func offset(_ origin: LatLng, north: Double, east: Double) -> LatLng {
        let perDegree = Earth.radiusMeters * .pi / 180
        return LatLng(
            latitude: origin.latitude + north / perDegree,
            longitude: origin.longitude + east / (perDegree * cos(origin.latitude * .pi / 180)))
    }

    /// A vehicle with a location at `at` and the trip `trip` (pickup `pickup`), refreshed once.
    static func vehicle(
        _ id: String, at position: LatLng, pickup: LatLng, time: Timestamp, observations: [AreaObservation]? = nil
    ) throws -> (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking, learned: [AreaObservation]) {
        var vehicle = try onlineVehicle(id)
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: position, updateTime: time)
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
        var trips = [try newTrip("trip-\(id)", pickup: pickup, dropoff: offset(pickup, north: 3_000, east: 0), vehicle: id)]
        var tracking = RouteTracking()
        let learned = try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: time, locationUpdated: true), roadPaces: [],
            areaObservations: observations)
        return (vehicle, trips, tracking, learned)
    }

    /// Moves a vehicle to `position` at `time`; returns what the fleet learnt.
    static func move(
        _ state: inout (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking, learned: [AreaObservation]), to position: LatLng,
        at time: Timestamp
    ) throws -> [AreaObservation] {
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: position, updateTime: time)
        try state.vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
        return try JourneyState.refresh(
            vehicle: &state.vehicle, trips: &state.trips, tracking: &state.tracking, trigger: .init(now: time, locationUpdated: true))
    }

    /// What a store holds after these observations (sums per kind and area, far within memory).
    static func stored(_ observations: [AreaObservation]) -> [AreaObservation] {
        var sums: [String: AreaObservation] = [:]
        for o in observations {
            let key = "\(o.kind.rawValue)/\(o.area)"
            if var sum = sums[key] {
                sum.amount += o.amount
                sum.weight += o.weight
                sums[key] = sum
            } else {
                sums[key] = o
            }
        }
        return Array(sums.values)
    }

    /// A vehicle that drives round two sides of a square to its stop teaches the area that
    /// detour; another vehicle heading for a stop in that area without a route takes the
    /// straight line times the learnt factor (pulled towards the constant), and says so; one
    /// in an area the fleet never drove keeps the constant.
    @Test func aLegTeachesItsAreasDetour() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        let stop = Self.offset(origin, north: 880, east: 700)
        var first = try Self.vehicle("v1", at: origin, pickup: stop, time: t0)
        #expect(first.learned.isEmpty)
        var learned: [AreaObservation] = []
        var time = t0
        // East 700 m, then north 880 m, 100 m every 10 s.
        var corner = origin
        for step in 1...7 {
            time = time.adding(seconds: 10)
            corner = Self.offset(origin, north: 0, east: 100 * Double(step))
            learned += try Self.move(&first, to: corner, at: time)
        }
        for step in 1...9 {
            time = time.adding(seconds: 10)
            learned += try Self.move(&first, to: Self.offset(corner, north: min(880, 100 * Double(step)), east: 0), at: time)
        }
        let straight = Earth.distance(origin, stop)
        let detours = learned.filter { $0.kind == .detour }
        #expect(!detours.isEmpty)
        let ratio = detours.reduce(0) { $0 + $1.amount } / detours.reduce(0) { $0 + $1.weight }
        #expect(abs(ratio - 1_580 / straight) < 0.01, "learnt \(ratio)")
        // Arriving twice teaches nothing more.
        #expect(try Self.move(&first, to: stop, at: time.adding(seconds: 10)).isEmpty)

        // A second vehicle in the same area, no route: the areas of its line are asked for.
        let start = Self.offset(origin, north: 100, east: 100)
        let target = Self.offset(start, north: 700, east: 500)
        let blank = try Self.vehicle("v2", at: start, pickup: target, time: time)
        let areas = try #require(
            JourneyState.areasToRead(vehicle: blank.vehicle, trips: blank.trips, tracking: RouteTracking(), now: time))
        #expect(areas == [AreaObservation.area(of: start)])
        #expect(blank.vehicle.estimateBasis?.detourSource == .constant)
        #expect(blank.vehicle.estimateBasis?.detourFactor == Estimation.detourFactor)

        let store = Self.stored(learned).filter { areas.contains($0.area) }
        let second = try Self.vehicle("v2", at: start, pickup: target, time: time, observations: store)
        let area = try #require(store.first { $0.kind == .detour })
        let prior = Estimation.detourPriorMeters
        let factor = (area.amount + prior * Estimation.detourFactor) / (area.weight + prior)
        #expect(factor > Estimation.detourFactor)
        #expect(second.vehicle.estimateMethod == .straightLine)
        #expect(second.vehicle.estimateBasis?.detourSource == .fleet)
        #expect(abs((second.vehicle.estimateBasis?.detourFactor ?? 0) - factor) < 1e-9)
        #expect(abs(Double(try #require(second.vehicle.remainingDistanceMeters)) - Earth.distance(start, target) * factor) <= 1)

        // Far away, nothing learnt: the constant.
        let elsewhere = LatLng(latitude: 37.6005, longitude: -121.9995)
        let third = try Self.vehicle("v3", at: elsewhere, pickup: Self.offset(elsewhere, north: 800, east: 0), time: time, observations: [])
        #expect(third.vehicle.estimateBasis?.detourSource == .constant)
        let expected = 800 * Estimation.detourFactor
        #expect(abs(Double(try #require(third.vehicle.remainingDistanceMeters)) - expected) <= 2)
    }

    /// Legs too short to describe an area's roads, and legs with a GPS jump, teach no detour.
    @Test func shortOrBrokenLegsTeachNoDetour() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        let near = Self.offset(origin, north: 300, east: 0)
        var short = try Self.vehicle("v1", at: origin, pickup: near, time: t0)
        var learned: [AreaObservation] = []
        for step in 1...3 {
            learned += try Self.move(&short, to: Self.offset(origin, north: 100 * Double(step), east: 0), at: t0.adding(seconds: 10 * Double(step)))
        }
        #expect(learned.isEmpty)

        let far = Self.offset(origin, north: 1_000, east: 0)
        var jumping = try Self.vehicle("v2", at: origin, pickup: far, time: t0)
        learned = try Self.move(&jumping, to: Self.offset(origin, north: 100, east: 0), at: t0.adding(seconds: 10))
        // 5 km away in 10 s: a GPS jump, then back on the way and on to the stop.
        learned += try Self.move(&jumping, to: Self.offset(origin, north: 100, east: 5_000), at: t0.adding(seconds: 20))
        for step in 2...10 {
            learned += try Self.move(
                &jumping, to: Self.offset(origin, north: 100 * Double(step), east: 0), at: t0.adding(seconds: 20 + 10 * Double(step)))
        }
        #expect(learned.filter { $0.kind == .detour }.isEmpty)
    }
}
