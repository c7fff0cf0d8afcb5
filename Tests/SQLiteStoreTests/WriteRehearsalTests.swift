import Fleet
import Foundation
import Geo
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripModelTesting
import TripStore

/// The SQLite store works a location update out before its writer (`WriteRehearsal`) and the
/// writer only checks and replays it. Whatever happens in between, riders and drivers must see
/// what running the update on the writer gives: the in-memory store, stepped through the same
/// writes, says what that is.
@Suite struct WriteRehearsalTests {
    let clock = ManualClock()
    let store: SQLiteTripStore
    let sqlite: Fleet
    let memory: Fleet

    init() throws {
        store = try SQLiteTripStore(path: try temporaryDatabasePath())
        sqlite = Fleet(store: store, clock: clock.wallClock)
        memory = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
    }

    func both(_ write: (Fleet) async throws -> Void) async throws {
        clock.advance()
        try await write(memory)
        try await write(sqlite)
    }

    func expectSame(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await sqlite.vehicle(provider: "p", id: "v1") == memory.vehicle(provider: "p", id: "v1"), sourceLocation: sourceLocation)
        #expect(try await sqlite.trip(provider: "p", id: "t1") == memory.trip(provider: "p", id: "t1"), sourceLocation: sourceLocation)
    }

    func drive(_ step: Int) async throws {
        let (input, mask) = TripProgressTests.drivingUpdate(step)
        try await both { _ = try await $0.updateVehicle(provider: "p", id: "v1", input: input, mask: mask) }
    }

    func startJourney() async throws {
        try await both { fleet in
            _ = try await fleet.createVehicle(provider: "p", id: "v1", input: TripProgressTests.routed(traffic: true))
            _ = try await fleet.createTrip(
                provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: TripProgressTests.road[150], dropoff: TripProgressTests.road[299]))
        }
    }

    /// A vehicle's updates are rehearsed from the first after the writer has seen its trips,
    /// and give what the writer gives, also after a trip's new status.
    @Test func rehearsedUpdatesMatchTheWriters() async throws {
        try await startJourney()
        for step in 1...20 {
            try await drive(step)
            try await expectSame()
        }
        #expect(store.rehearsalOutcomes == (replayed: 19, stale: 0, notRehearsed: 1))
        try await both { _ = try await $0.updateTrip(provider: "p", id: "t1", input: statusChange(.enrouteToPickup), mask: FieldMask("tripStatus")) }
        for step in 21...30 {
            try await drive(step)
            try await expectSame()
        }
        #expect(store.rehearsalOutcomes == (replayed: 29, stale: 0, notRehearsed: 1))
        #expect(try await sqlite.trip(provider: "p", id: "t1").tripStatus == .enrouteToPickup)
    }

    /// A trip that changes after an update was rehearsed and before the writer reaches it: the
    /// update is run again on the writer, and derives from the trip as it now is.
    @Test func aTripChangedAfterTheRehearsal() async throws {
        try await startJourney()
        for step in 1...3 { try await drive(step) }
        let sqlite = sqlite
        store.afterRehearsal.withLock { hook in
            hook = {
                _ = try? await sqlite.updateTrip(provider: "p", id: "t1", input: statusChange(.enrouteToPickup), mask: FieldMask("tripStatus"))
            }
        }
        clock.advance()
        _ = try await memory.updateTrip(provider: "p", id: "t1", input: statusChange(.enrouteToPickup), mask: FieldMask("tripStatus"))
        let (input, mask) = TripProgressTests.drivingUpdate(4)
        _ = try await memory.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
        let answer = try await sqlite.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
        store.afterRehearsal.withLock { $0 = nil }
        #expect(try await answer == memory.vehicle(provider: "p", id: "v1"))
        try await expectSame()
        #expect(store.rehearsalOutcomes.stale == 1)
    }

    /// A vehicle deleted after its update was rehearsed: the update answers NOT_FOUND, and
    /// writes nothing.
    @Test func aVehicleDeletedAfterTheRehearsal() async throws {
        let sqlite = sqlite
        _ = try await sqlite.createVehicle(provider: "p", id: "v9", input: vehicleInput(at: LatLng(latitude: 52.5, longitude: 13.4)))
        _ = try await sqlite.updateVehicle(provider: "p", id: "v9", input: location(52.51, 13.4), mask: FieldMask("lastLocation"))
        store.afterRehearsal.withLock { hook in hook = { try? await sqlite.deleteVehicle(provider: "p", id: "v9") } }
        let before = try await store.latestEventID()
        let error = await #expect(throws: StatusError.self) {
            _ = try await sqlite.updateVehicle(provider: "p", id: "v9", input: location(52.52, 13.4), mask: FieldMask("lastLocation"))
        }
        #expect(error?.code == .notFound)
        store.afterRehearsal.withLock { $0 = nil }
        #expect(try await store.events(after: before, filter: .all, limit: 10).isEmpty)
        #expect(store.rehearsalOutcomes.stale == 1)
    }

    /// Updates of one vehicle sent all at once each commit once, in some order, and the
    /// vehicle ends where the last of them in the log put it.
    @Test func concurrentUpdatesOfOneVehicle() async throws {
        try await startJourney()
        try await drive(1)
        let sqlite = sqlite
        let before = try await store.latestEventID()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for step in 2...17 {
                group.addTask {
                    let (input, mask) = TripProgressTests.drivingUpdate(step)
                    _ = try await sqlite.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
                }
            }
            try await group.waitForAll()
        }
        let locations = try await store.events(after: before, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100)
            .filter { $0.type == "didUpdateVehicleLocation" }
        #expect(locations.count == 16)
        let outcomes = store.rehearsalOutcomes
        #expect(outcomes.replayed + outcomes.stale + outcomes.notRehearsed == 17)
        let last = try #require(locations.last)
        let vehicle = try await sqlite.vehicle(provider: "p", id: "v1")
        let latitude = try #require(vehicle.lastLocation?.location?.latitude)
        #expect(last.data.contains(String(latitude)))
    }
}
