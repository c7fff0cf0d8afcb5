// Event retention (DESIGN §11): the store's primitives (deleting events, the log's start) and
// Fleet's policy over them (EventLogTrimmer), as every store must carry them out.

import Fleet
import Geo
import Testing
import TripModel
import TripModelTesting
import TripStore

extension StoreConformance {
    static let retentionChecks: [Check] = [
        Check("deleted events are gone and the log's start moves up", deletedEventsAreGone),
        Check("retention deletes old events and keeps each vehicle's history", retentionKeepsHistories),
        Check("retention deletes the locations pushed out of a history", retentionFollowsHistories),
        Check("the first ID of a vehicle's newest events is found from the IDs", newestEventsFirstIDs),
        Check("one vehicle's events in an ID range are deleted oldest first, a bounded number", deletesOneVehiclesEvents),
        Check("a head pass leaves each vehicle its history and nothing else old", headPassLeavesHistories),
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
        let moving = ManualClock(Inputs.time)
        let fleet = Fleet(store: store, clock: moving.wallClock)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1"))
        _ = try await fleet.createVehicle(provider: "p", id: "v2", input: Inputs.vehicle(at: LatLng(latitude: 38, longitude: -121)))
        _ = try await fleet.createVehicle(provider: "p", id: "gone", input: Inputs.vehicle(at: LatLng(latitude: 36, longitude: -121)))
        for i in 0..<1_105 {
            moving.advance(by: 1)
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
        moving.advance(by: 3_600)
        _ = try await fleet.updateVehicle(provider: "p", id: "v2", input: Inputs.location(38.5, -121), mask: FieldMask("lastLocation"))
        let before = try await store.events(after: 0, filter: .all, limit: 100_000)
        let cutoff = moving.wallClock.now.adding(seconds: -1_800)
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
        let moving = ManualClock(Inputs.time)
        let fleet = Fleet(store: store, clock: moving.wallClock)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        for i in 0..<1_005 {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(37 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
        }
        moving.advance(by: 120)
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

    /// `newestEventsFirstID` names the first event `newestEvents` returns: the oldest of the
    /// vehicle's newest `limit` events of that type (all of them when it has fewer), since it
    /// was created; nil when there is none. A vehicle deleted and created again starts afresh.
    static func newestEventsFirstIDs(_ make: Factory) async throws {
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in
            try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v1"))
            try tx.insertVehicle(provider: "p", id: "v1", record)
        }
        try await store.write { tx in
            for _ in 0..<6 {
                try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v1"))
                try tx.appendEvent(provider: "p", Inputs.event("other", vehicle: "v1"))
                try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v2"))
                try tx.appendEvent(provider: "q", Inputs.event("loc", vehicle: "v1"))
            }
        }
        let locations = try await store.events(after: 0, filter: .all, limit: 100)
            .filter { $0.provider == "p" && $0.vehicleId == "v1" && $0.type == "loc" }.map(\.id)
        #expect(locations.count == 7, "one logged before the vehicle was created, six in its history")
        for (limit, expected) in [(1, locations[6]), (4, locations[3]), (6, locations[1]), (7, locations[1]), (1_000, locations[1])] {
            let newest = try await store.newestEvents(provider: "p", vehicleId: "v1", type: "loc", limit: limit)
            #expect(newest.first?.id == expected, "limit \(limit)")
            #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: limit) == expected, "limit \(limit)")
        }
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: 0) == nil)
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "none", limit: 5) == nil)
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v2", type: "loc", limit: 5) == nil, "no such vehicle")
        #expect(try await store.newestEventsFirstID(provider: "q", vehicleId: "v1", type: "loc", limit: 5) == nil, "no such vehicle")

        try await store.write { tx in try tx.deleteVehicle(provider: "p", id: "v1") }
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: 5) == nil)
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: 5) == nil, "a new history")
        try await store.write { tx in
            for _ in 0..<2 { try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v1")) }
        }
        let reborn = try await store.events(after: locations[6], filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100)
            .filter { $0.type == "loc" }.map(\.id)
        #expect(reborn.count == 2)
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: 1_000) == reborn.first)
        #expect(try await store.newestEventsFirstID(provider: "p", vehicleId: "v1", type: "loc", limit: 1) == reborn.last)
    }

    /// Deleting one vehicle's events of one type in an ID range takes the oldest first, at
    /// most the limit per call, and says how many; other vehicles', providers' and types'
    /// events stay, the events go from every reader (a trip's too), and the log's start moves
    /// up to the greatest deleted.
    static func deletesOneVehiclesEvents(_ make: Factory) async throws {
        let store = try await make()
        try await store.write { tx in
            for i in 0..<10 {
                try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v1", trips: i % 2 == 0 ? ["t1"] : []))
                try tx.appendEvent(provider: "p", Inputs.event("other", vehicle: "v1", trips: ["t1"]))
                try tx.appendEvent(provider: "p", Inputs.event("loc", vehicle: "v2"))
                try tx.appendEvent(provider: "q", Inputs.event("loc", vehicle: "v1"))
            }
        }
        let all = try await store.events(after: 0, filter: .all, limit: 100)
        let v1 = all.filter { $0.provider == "p" && $0.vehicleId == "v1" && $0.type == "loc" }.map(\.id)
        #expect(v1.count == 10)
        let range = v1[2]..<v1[8]
        func delete(_ ids: Range<Int64>, limit: Int) async throws -> Int {
            try await store.write { tx in try tx.deleteEvents(provider: "p", vehicleId: "v1", type: "loc", ids: ids, limit: limit) }
        }
        #expect(try await delete(range, limit: 4) == 4)
        #expect(try await store.eventLogStart() == v1[5])
        #expect(try await delete(range, limit: 4) == 2)
        #expect(try await delete(range, limit: 4) == 0)
        #expect(try await delete(v1[0]..<v1[9], limit: 0) == 0)
        #expect(try await delete(v1[9]..<v1[9], limit: 5) == 0)
        #expect(try await store.eventLogStart() == v1[7])

        let gone = Set(v1[2..<8])
        let left = all.filter { !gone.contains($0.id) }
        #expect(try await store.events(after: 0, filter: .all, limit: 100).map(\.id) == left.map(\.id))
        #expect(
            try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 100).map(\.id)
                == left.filter { $0.tripIds == ["t1"] }.map(\.id))
        #expect(
            try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100).map(\.id)
                == left.filter { $0.provider == "p" && $0.vehicleId == "v1" }.map(\.id))
    }

    /// After a head pass (the eleventh), every vehicle still has exactly its history (the
    /// newest 1,000 locations since it was created: fewer for a vehicle that has sent fewer,
    /// only the new life's for one deleted and created again, none for one deleted), and
    /// nothing else older than the window is left in the log; the passes between the first
    /// and the head pass read only the events after where the last one stopped.
    static func headPassLeavesHistories(_ make: Factory) async throws {
        let store = try await make()
        let moving = ManualClock(Inputs.time)
        let fleet = Fleet(store: store, clock: moving.wallClock)
        func move(_ id: String, times: Int, from start: Int = 0) async throws {
            for i in start..<start + times {
                _ = try await fleet.updateVehicle(
                    provider: "p", id: id, input: Inputs.location(37 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
            }
        }
        for id in ["busy", "few", "reborn", "gone", "late"] {
            _ = try await fleet.createVehicle(provider: "p", id: id, input: Inputs.vehicle())
        }
        try await move("busy", times: 1_000)
        try await move("few", times: 30)
        try await move("reborn", times: 100)
        try await move("gone", times: 50)
        try await move("late", times: 40)
        moving.advance(by: 120)
        let trimmer = EventLogTrimmer(fleet: fleet, retention: EventRetention(duration: .seconds(60)), batchSize: 64)
        let first = try await trimmer.trim()
        #expect(first.head && first.examined == 1_220 && first.deleted == 0, "every location is in its vehicle's history")

        // Newer locations push 150 of busy's out; gone is deleted (its locations lie behind
        // the cursor); late is deleted after its last locations (met by a pass after the
        // first); reborn is deleted and created again, with a new history of 20.
        try await move("busy", times: 150, from: 1_000)
        try await move("few", times: 10, from: 30)
        try await fleet.deleteVehicle(provider: "p", id: "gone")
        try await move("late", times: 5, from: 40)
        try await fleet.deleteVehicle(provider: "p", id: "late")
        try await fleet.deleteVehicle(provider: "p", id: "reborn")
        _ = try await fleet.createVehicle(provider: "p", id: "reborn", input: Inputs.vehicle())
        try await move("reborn", times: 20, from: 500)
        var histories: [String: [VehicleLocation]] = [:]
        for id in ["busy", "few", "reborn"] {
            histories[id] = try await fleet.locationHistory(provider: "p", vehicleId: id, limit: 1_000)
        }
        #expect(histories.mapValues(\.count) == ["busy": 1_000, "few": 40, "reborn": 20])
        moving.advance(by: 120)
        var passes: [EventLogTrimmer.Pass] = []
        for _ in 0..<10 { passes.append(try await trimmer.trim()) }
        #expect(passes.map(\.head) == Array(repeating: false, count: 9) + [true])
        #expect(passes[0].examined == 150 + 10 + 5 + 20 && passes[0].deleted == 5, "the new locations; late's are gone with it")
        #expect(passes.dropFirst().allSatisfy { $0.examined == 0 })
        #expect(passes[9].deleted == 150 + 50 + 40 + 100, "pushed out, gone, late, reborn's first life")

        for id in ["busy", "few", "reborn"] {
            #expect(try await fleet.locationHistory(provider: "p", vehicleId: id, limit: 1_000) == histories[id], "\(id)")
        }
        var historyIDs: Set<Int64> = []
        for id in ["busy", "few", "reborn"] {
            historyIDs.formUnion(try await store.newestEvents(provider: "p", vehicleId: id, type: "didUpdateVehicleLocation", limit: 1_000).map(\.id))
        }
        #expect(historyIDs.count == 1_060)
        let log = try await store.events(after: 0, filter: .all, limit: 100_000)
        #expect(Set(log.map(\.id)) == historyIDs, "everything is older than the window: only the histories stay")

        // Nothing more to delete at the next head pass.
        var later = 0
        for _ in 0..<10 { later += try await trimmer.trim().deleted }
        #expect(later == 0)
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
