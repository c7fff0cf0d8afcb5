import Foundation
import Geo
import Testing
import TripModel

/// What every drive teaches the estimate without a route (docs/estimates.md): the detour of the
/// areas a vehicle drove through from one standstill to the next, whether or not it had a trip.
@Suite struct FleetDriveTests {
    typealias State = (vehicle: Vehicle, trips: [Trip], tracking: RouteTracking, learned: [AreaObservation])

    /// A vehicle without trips at `position`, refreshed once.
    static func idle(_ id: String, at position: LatLng, time: Timestamp) throws -> State {
        var vehicle = try onlineVehicle(id)
        var update = Vehicle(name: "")
        update.lastLocation = VehicleLocation(location: position, updateTime: time)
        try vehicle.apply(update, mask: FieldMask("lastLocation"), now: time)
        var trips: [Trip] = []
        var tracking = RouteTracking()
        let learned = try JourneyState.refresh(
            vehicle: &vehicle, trips: &trips, tracking: &tracking, trigger: .init(now: time, locationUpdated: true))
        return (vehicle, trips, tracking, learned)
    }

    /// Drives east `east` metres, then north `north` metres, 100 m every 10 s, from `origin`
    /// starting after `time`; returns what the fleet learnt and the time of the last fix.
    static func drive(
        _ state: inout State, from origin: LatLng, east: Int, north: Int, after time: Timestamp
    ) throws
        -> (learned: [AreaObservation], time: Timestamp, position: LatLng)
    {
        var learned: [AreaObservation] = []
        var now = time
        var position = origin
        for step in stride(from: 100, through: east, by: 100) {
            now = now.adding(seconds: 10)
            position = FleetLegTests.offset(origin, north: 0, east: Double(step))
            learned += try FleetLegTests.move(&state, to: position, at: now)
        }
        let corner = position
        for step in stride(from: 100, through: north, by: 100) {
            now = now.adding(seconds: 10)
            position = FleetLegTests.offset(corner, north: Double(step), east: 0)
            learned += try FleetLegTests.move(&state, to: position, at: now)
        }
        return (learned, now, position)
    }

    /// Stands at `position` for `seconds`, a fix every 10 s; returns what the fleet learnt.
    static func stand(_ state: inout State, at position: LatLng, seconds: Int, after time: Timestamp) throws -> [AreaObservation] {
        var learned: [AreaObservation] = []
        for step in stride(from: 10, through: seconds, by: 10) {
            learned += try FleetLegTests.move(&state, to: position, at: time.adding(seconds: Double(step)))
        }
        return learned
    }

    /// A vehicle with no trip that drives round two sides of a square and parks teaches the
    /// detour it drove once it has stood for two minutes, not before; a wait at a red light on
    /// the way does not end the drive; standing on teaches nothing more.
    @Test func aDriveWithoutATripTeachesItsDetourAtTheStandstill() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        var state = try Self.idle("v1", at: origin, time: t0)
        var learned = try Self.stand(&state, at: origin, seconds: 130, after: t0)
        #expect(learned.isEmpty)
        // East 400 m, a minute at a red light, on east 300 m and north 800 m.
        var leg = try Self.drive(&state, from: origin, east: 400, north: 0, after: t0.adding(seconds: 130))
        learned += leg.learned
        learned += try Self.stand(&state, at: leg.position, seconds: 60, after: leg.time)
        leg = try Self.drive(&state, from: leg.position, east: 300, north: 800, after: leg.time.adding(seconds: 60))
        learned += leg.learned
        #expect(learned.isEmpty)
        learned += try Self.stand(&state, at: leg.position, seconds: 110, after: leg.time)
        #expect(learned.isEmpty, "stood less than a standstill")
        learned += try Self.stand(&state, at: leg.position, seconds: 30, after: leg.time.adding(seconds: 110))
        let detours = learned.filter { $0.kind == .detour }
        #expect(!detours.isEmpty)
        let straight = Earth.distance(origin, leg.position)
        let ratio = detours.reduce(0) { $0 + $1.amount } / detours.reduce(0) { $0 + $1.weight }
        #expect(abs(ratio - 1_500 / straight) < 0.01, "learnt \(ratio)")
        #expect(try Self.stand(&state, at: leg.position, seconds: 300, after: leg.time.adding(seconds: 140)).isEmpty)
    }

    /// A drive that ends at a stop teaches its detour once: by the leg, when the vehicle
    /// arrives, not again when it stands there.
    @Test func aDriveEndingAtAStopTeachesOnce() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        let stop = FleetLegTests.offset(origin, north: 800, east: 700)
        var state = try FleetLegTests.vehicle("v1", at: origin, pickup: stop, time: t0)
        let leg = try Self.drive(&state, from: origin, east: 700, north: 800, after: t0)
        let byLeg = leg.learned.filter { $0.kind == .detour }
        #expect(!byLeg.isEmpty)
        #expect(try Self.stand(&state, at: leg.position, seconds: 300, after: leg.time).isEmpty)
    }

    /// A drive broken by a GPS jump teaches nothing; the drive after the jump does.
    @Test func aJumpEndsTheDriveUnlearnt() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        var state = try Self.idle("v1", at: origin, time: t0)
        var leg = try Self.drive(&state, from: origin, east: 500, north: 0, after: t0)
        // 5 km in 10 s: a jump; the vehicle is seen again where it was and drives on.
        var learned = leg.learned
        learned += try FleetLegTests.move(&state, to: FleetLegTests.offset(origin, north: 5_000, east: 0), at: leg.time.adding(seconds: 10))
        learned += try FleetLegTests.move(&state, to: leg.position, at: leg.time.adding(seconds: 20))
        let restart = leg.position
        leg = try Self.drive(&state, from: restart, east: 0, north: 600, after: leg.time.adding(seconds: 20))
        learned += leg.learned
        learned += try Self.stand(&state, at: leg.position, seconds: 130, after: leg.time)
        let detours = learned.filter { $0.kind == .detour }
        // Only the way after the jump, straight north: a detour of 1.
        #expect(!detours.isEmpty)
        let ratio = detours.reduce(0) { $0 + $1.amount } / detours.reduce(0) { $0 + $1.weight }
        #expect(abs(ratio - 1) < 0.01, "learnt \(ratio)")
        #expect(abs(detours.reduce(0) { $0 + $1.weight } - Earth.distance(restart, leg.position)) < 1)
    }

    /// Without a trip, a vehicle on the move counts as driving for the fleet's road-cell paces;
    /// once it has stood still for two minutes (parked) it no longer does, until it drives on.
    @Test func aVehicleWithoutATripDrivesUntilItStandsStill() throws {
        let origin = LatLng(latitude: 37.4005, longitude: -121.9995)
        var state = try Self.idle("v1", at: origin, time: t0)
        let leg = try Self.drive(&state, from: origin, east: 300, north: 0, after: t0)
        #expect(JourneyState.isDriving(vehicle: state.vehicle, trips: [], tracking: state.tracking))
        _ = try Self.stand(&state, at: leg.position, seconds: 60, after: leg.time)
        #expect(JourneyState.isDriving(vehicle: state.vehicle, trips: [], tracking: state.tracking), "a red light")
        _ = try Self.stand(&state, at: leg.position, seconds: 70, after: leg.time.adding(seconds: 60))
        #expect(!JourneyState.isDriving(vehicle: state.vehicle, trips: [], tracking: state.tracking), "parked")
        _ = try Self.drive(&state, from: leg.position, east: 100, north: 0, after: leg.time.adding(seconds: 130))
        #expect(JourneyState.isDriving(vehicle: state.vehicle, trips: [], tracking: state.tracking))
    }
}
