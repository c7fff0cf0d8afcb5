import Foundation
import Geo
import Testing
import TripModel
import TripStore

/// A hook that counts updates in its state bytes, marks the vehicle, and logs one event.
struct CountingHook: VehicleUpdateHook {
    var failOnLocation = false

    struct Refused: Error {}

    func vehicleDidChange(_ change: inout VehicleChange) throws -> [NewEvent] {
        if failOnLocation, change.cause == .vehicleUpdated(locationUpdated: true) { throw Refused() }
        let count = (change.navigator.state?.first ?? 0) + 1
        change.navigator.state = [count]
        change.vehicle.navigationStatus = .enrouteToDestination
        return [NewEvent(time: change.now, vehicleId: change.vehicleId, tripIds: change.vehicle.currentTrips,
                         type: "hook:\(change.cause)", data: "{\"count\":\(count)}")]
    }
}

@Suite struct VehicleUpdateHookTests {
    /// The hook runs inside the write: its vehicle change, state and events are all stored.
    @Test(arguments: StoreKind.allCases) func hookChangesCommitWithTheWrite(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        let vehicle = try await store.updateVehicle(provider: "p", id: "v1", input: location(37.39, -122),
                                                   mask: FieldMask("lastLocation"), hook: CountingHook())
        #expect(vehicle.navigationStatus == .enrouteToDestination)
        #expect(try await store.vehicle(provider: "p", id: "v1").navigationStatus == .enrouteToDestination)
        let state = try await store.readNavigator(provider: "p", vehicleId: "v1") { _, navigator in navigator.state }
        #expect(state == [1])
        let events = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10)
        #expect(events.map(\.type) == ["didUpdateVehicleLocation", "hook:vehicleUpdated(locationUpdated: true)"])
        // A trip assigned and moved on runs it too, with the cause saying so.
        _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1"), hook: CountingHook())
        _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(.enrouteToPickup),
                                       mask: FieldMask("tripStatus"), hook: CountingHook())
        let types = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 20).map(\.type)
        #expect(types.contains("hook:tripsChanged(statusChanged: false)"))
        #expect(types.last == "hook:tripsChanged(statusChanged: true)")
        #expect(try await store.readNavigator(provider: "p", vehicleId: "v1") { _, navigator in navigator.state } == [3])
    }

    /// A hook that throws aborts the whole write: no location, no event, no state.
    @Test(arguments: StoreKind.allCases) func throwingHookChangesNothing(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        await #expect(throws: CountingHook.Refused.self) {
            try await store.updateVehicle(provider: "p", id: "v1", input: location(37.39, -122),
                                          mask: FieldMask("lastLocation"), hook: CountingHook(failOnLocation: true))
        }
        #expect(try await store.vehicle(provider: "p", id: "v1").lastLocation == nil)
        #expect(try await store.latestEventID() == 0)
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10).isEmpty)
    }

    /// A navigator change stores the route apart with a new version, and a read sees both;
    /// removing the route empties it.
    @Test(arguments: StoreKind.allCases) func navigatorRoute(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        let before = try await store.readNavigator(provider: "p", vehicleId: "v1") { _, n in n.routeVersion }
        #expect(before == 0)
        _ = try await store.updateNavigator(provider: "p", vehicleId: "v1") { change in
            #expect(change.cause == .navigatorChanged)
            change.navigator.replaceRoute([1, 2, 3], now: change.now)
            change.navigator.state = [9]
            let replaced = try change.navigator.route()
            #expect(replaced == [1, 2, 3])
            return [NewEvent(time: change.now, vehicleId: "v1", tripIds: [], type: "navigatorDidChangeRoute", data: "{}")]
        }
        let (route, version, state) = try await store.readNavigator(provider: "p", vehicleId: "v1") { _, n in
            (try n.route(), n.routeVersion, n.state)
        }
        #expect(route == [1, 2, 3] && version > 0 && state == [9])
        #expect(try await store.events(after: 0, filter: .all, limit: 10).map(\.type) == ["navigatorDidChangeRoute"])
        _ = try await store.updateNavigator(provider: "p", vehicleId: "v1") { change in
            change.navigator.replaceRoute(nil, now: change.now)
            return []
        }
        let (removed, newVersion) = try await store.readNavigator(provider: "p", vehicleId: "v1") { _, n in
            (try n.route(), n.routeVersion)
        }
        #expect(removed == nil && newVersion > version)
        let missing = try await #require(throws: FleetError.self) {
            try await store.updateNavigator(provider: "p", vehicleId: "nope") { _ in [] }
        }
        #expect(missing.code == .notFound)
    }

    /// The navigator's state and route survive reopening the database, and deleting the
    /// vehicle removes them.
    @Test func navigatorSurvivesReopen() async throws {
        let path = try temporaryDatabasePath()
        let first = try SQLiteTripStore(path: path)
        _ = try await first.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        _ = try await first.updateNavigator(provider: "p", vehicleId: "v1") { change in
            change.navigator.replaceRoute([7], now: change.now)
            change.navigator.state = [8]
            return []
        }
        let second = try SQLiteTripStore(path: path)
        #expect(second.newlyAppliedMigrations.isEmpty)
        let (route, state) = try await second.readNavigator(provider: "p", vehicleId: "v1") { _, n in (try n.route(), n.state) }
        #expect(route == [7] && state == [8])
        try await second.deleteVehicle(provider: "p", id: "v1")
        _ = try await second.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        let (gone, goneState) = try await second.readNavigator(provider: "p", vehicleId: "v1") { _, n in (try n.route(), n.state) }
        #expect(gone == nil && goneState == nil)
    }
}
