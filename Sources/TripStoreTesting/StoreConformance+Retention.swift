// Event retention (DESIGN §11): the store's primitives (deleting events, the log's start) and
// Fleet's policy over them (EventLogTrimmer), as every store must carry them out.

import Fleet
import Geo
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let retentionChecks: [Check] = [
        Check("deleted events are gone and the log's start moves up", deletedEventsAreGone),
        Check("retention deletes old events and keeps each vehicle's history", retentionKeepsHistories),
        Check("retention deletes the locations pushed out of a history", retentionFollowsHistories),
        Check("a fresh store is healthy and its probe write succeeds", freshStoreIsHealthy),
    ]

    /// Deleting events removes them from every reader; IDs are never reused; the log's start
    /// is the greatest ID deleted and never moves down; the newest ID stays the newest ever
    /// logged, even when that event is deleted.
    static func deletedEventsAreGone(_ make: Factory) async throws {
        let store = try await make()
        #expect(try await store.eventLogStart() == 0)
        try await store.write { tx in
            for i in 1...10 { try tx.appendEvent(provider: "p", Inputs.event("e\(i)", vehicle: "v1", trips: i % 2 == 0 ? ["t1"] : [])) }
        }
        let ids = try await store.events(after: 0, filter: .all, limit: 100).map(\.id)
        #expect(ids.count == 10)
        try await store.write { tx in try tx.deleteEvents([ids[1], ids[2], ids[4]]) }
        #expect(try await store.eventLogStart() == ids[4])
        let kept = [ids[0], ids[3]] + ids[5...]
        #expect(try await store.events(after: 0, filter: .all, limit: 100).map(\.id) == kept)
        #expect(try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100).map(\.id) == kept)
        #expect(try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 100).map(\.type) == ["e4", "e6", "e8", "e10"])

        // An older ID deleted later leaves the start where it was; IDs already deleted are
        // skipped.
        try await store.write { tx in try tx.deleteEvents([ids[0], ids[1]]) }
        try await store.write { tx in try tx.deleteEvents([]) }
        #expect(try await store.eventLogStart() == ids[4])
        #expect(try await store.events(after: 0, filter: .all, limit: 100).first?.id == ids[3])

        // Deleting the newest: it stays the newest ID, and the next event gets a greater one.
        let latest = try await store.latestEventID()
        try await store.write { tx in try tx.deleteEvents(Array(ids[3...])) }
        #expect(try await store.events(after: 0, filter: .all, limit: 100).isEmpty)
        #expect(try await store.latestEventID() >= latest)
        try await store.write { tx in try tx.appendEvent(provider: "p", Inputs.event("after", vehicle: "v1")) }
        let next = try await store.events(after: 0, filter: .all, limit: 100)
        #expect(next.map(\.type) == ["after"])
        #expect((next.first?.id ?? 0) > latest)
    }

    /// A pass deletes every event older than the retention window except the locations in
    /// their vehicle's history (its newest 1,000, however old): histories read the same before
    /// and after, events inside the window stay, a deleted vehicle's locations go, and a
    /// second pass finds nothing more to delete.
    static func retentionKeepsHistories(_ make: Factory) async throws {
        let store = try await make()
        let moving = MovingClock()
        let fleet = Fleet(store: store, clock: moving.clock)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1"))
        _ = try await fleet.createVehicle(provider: "p", id: "v2", input: Inputs.vehicle(at: LatLng(latitude: 38, longitude: -121)))
        _ = try await fleet.createVehicle(provider: "p", id: "gone", input: Inputs.vehicle(at: LatLng(latitude: 36, longitude: -121)))
        for i in 0..<1_105 {
            moving.advance(seconds: 1)
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(37.3 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
            if i % 500 == 0 {
                _ = try await fleet.updateVehicle(
                    provider: "p", id: "v2", input: Inputs.location(38 + Double(i) * 1e-5, -121),
                    mask: FieldMask("lastLocation"))
            }
        }
        try await fleet.deleteVehicle(provider: "p", id: "gone")
        let v1History = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 1_000)
        let v2History = try await fleet.locationHistory(provider: "p", vehicleId: "v2", limit: 1_000)
        #expect(v1History.count == 1_000 && v2History.count == 4)

        // An hour later, with a 30-minute retention: v2 reports once more, inside the window.
        moving.advance(seconds: 3_600)
        _ = try await fleet.updateVehicle(provider: "p", id: "v2", input: Inputs.location(38.5, -121), mask: FieldMask("lastLocation"))
        let before = try await store.events(after: 0, filter: .all, limit: 100_000)
        let cutoff = moving.clock.now.adding(seconds: -1_800)
        let trimmer = EventLogTrimmer(fleet: fleet, retention: EventRetention(duration: .seconds(1_800)), batchSize: 100)
        let pass = try await trimmer.trim()

        let after = try await store.events(after: 0, filter: .all, limit: 100_000)
        let locationType = "didUpdateVehicleLocation"
        let historyIDs = Set(
            try await store.newestEvents(provider: "p", vehicleId: "v1", type: locationType, limit: 1_000).map(\.id)
                + store.newestEvents(provider: "p", vehicleId: "v2", type: locationType, limit: 1_000).map(\.id))
        let expected = before.filter { $0.time >= cutoff || historyIDs.contains($0.id) }
        #expect(after.map(\.id) == expected.map(\.id))
        #expect(before.count - after.count > 105, "v1's 105 oldest locations go, and the events that are not locations")
        #expect(!after.contains { $0.vehicleId == "gone" })
        #expect(after.filter { $0.time < cutoff }.allSatisfy { $0.type == locationType })
        #expect(pass.deleted == before.count - after.count)
        #expect(pass.examined == before.filter { $0.time < cutoff }.count)
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 1_000) == v1History)
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v2", limit: 1_000).count == 5)
        #expect(try await store.eventLogStart() > 0)
        #expect(try await store.latestEventID() == before.last?.id)

        let again = try await trimmer.trim()
        #expect(again.deleted == 0)
        #expect(try await store.events(after: 0, filter: .all, limit: 100_000).count == after.count)
    }

    /// Locations a vehicle's newer ones push out of its history are deleted within ten passes
    /// (the trimmer goes back to the log's head every tenth), and histories never change.
    static func retentionFollowsHistories(_ make: Factory) async throws {
        let store = try await make()
        let moving = MovingClock()
        let fleet = Fleet(store: store, clock: moving.clock)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        for i in 0..<1_005 {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(37 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
        }
        moving.advance(seconds: 120)
        let trimmer = EventLogTrimmer(fleet: fleet, retention: EventRetention(duration: .seconds(60)))
        #expect(try await trimmer.trim().deleted == 5)
        for i in 0..<10 {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(38 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
        }
        let history = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 1_000)
        #expect(history.count == 1_000)
        var deleted = 0
        for _ in 0..<10 { deleted += try await trimmer.trim().deleted }
        #expect(deleted == 10)
        #expect(try await store.events(after: 0, filter: .all, limit: 10_000).count == 1_000)
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 1_000) == history)
    }

    /// A store starts healthy, and its probe write succeeds and leaves the data as it was.
    static func freshStoreIsHealthy(_ make: Factory) async throws {
        let store = try await make()
        #expect(store.health.failure == nil)
        try await store.probeWrites()
        #expect(store.health.failure == nil)
        #expect(try await store.latestEventID() == 0)
        #expect(try await store.listVehicles(provider: "p", page: PageRequest()).items.isEmpty)
    }
}
