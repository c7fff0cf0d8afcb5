import Foundation
import Testing
import TripModel
import TripStore

/// Writes that overlap: the SQLite store runs the writes waiting at the same time in one
/// shared transaction; that must neither lose nor mix anything.
@Suite struct ConcurrentWriteTests {
    /// Many location updates at once all commit, in full: every location is in the history
    /// and has its event.
    @Test(arguments: StoreKind.allCases) func simultaneousUpdatesAllCommit(_ kind: StoreKind) async throws {
        let store = try kind.make()
        for v in 0..<4 { _ = try await store.createVehicle(provider: "p", id: "v\(v)", input: vehicleInput()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<80 {
                group.addTask {
                    _ = try await store.updateVehicle(provider: "p", id: "v\(i % 4)", input: location(37 + Double(i) * 1e-4, -122),
                                                      mask: FieldMask("lastLocation"))
                }
            }
            try await group.waitForAll()
        }
        for v in 0..<4 {
            let history = try await store.locationHistory(provider: "p", vehicleId: "v\(v)", limit: 100)
            #expect(history.count == 20)
            let events = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v\(v)"), limit: 100)
            #expect(events.filter { $0.type == "didUpdateVehicleLocation" }.count == 20)
        }
    }

    /// Many updates of one vehicle at once, sharing transactions: each sees the one before,
    /// so a hook counting them in the navigator's state loses no count.
    @Test(arguments: StoreKind.allCases) func simultaneousUpdatesOfOneVehicleLoseNothing(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<60 {
                group.addTask {
                    _ = try await store.updateVehicle(provider: "p", id: "v1", input: location(37 + Double(i) * 1e-4, -122),
                                                      mask: FieldMask("lastLocation"), hook: CountingHook())
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.readNavigator(provider: "p", vehicleId: "v1") { _, navigator in navigator.state } == [60])
        let events = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 200)
        #expect(events.filter { $0.type.hasPrefix("hook:") }.map(\.data) == (1...60).map { "{\"count\":\($0)}" })
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 100).count == 60)
    }

    /// A hook that refuses some trips' assignment.
    struct RefusingHook: VehicleUpdateHook {
        struct Refused: Error {}
        func vehicleDidChange(_ change: inout VehicleChange) throws -> [NewEvent] {
            if change.trips.contains(where: { Int($0.tripId.dropFirst())! % 2 == 0 }) { throw Refused() }
            return []
        }
    }

    /// Writes that fail mid-way (after inserting their trip) take back only their own
    /// changes, whichever writes shared their transaction.
    @Test(arguments: StoreKind.allCases) func failedWritesTakeBackOnlyTheirOwn(_ kind: StoreKind) async throws {
        let store = try kind.make()
        for v in 0..<30 { _ = try await store.createVehicle(provider: "p", id: "v\(v)", input: vehicleInput()) }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for i in 0..<30 {
                group.addTask {
                    do {
                        _ = try await store.createTrip(provider: "p", id: "t\(i)", input: tripInput(vehicle: "v\(i)"), hook: RefusingHook())
                        return (i, true)
                    } catch is RefusingHook.Refused {
                        return (i, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        for i in 0..<30 {
            #expect(outcomes[i] == (i % 2 == 1))
            let exists = (try? await store.trip(provider: "p", id: "t\(i)")) != nil
            #expect(exists == (i % 2 == 1), "trip t\(i)")
            let events = try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t\(i)"), limit: 10)
            #expect(events.isEmpty == (i % 2 == 0), "events of t\(i)")
        }
    }
}
