import Fleet
import Foundation
import GRDB
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripModelTesting
import TripStore

/// Event retention on the SQLite file: the pages of deleted events are reused, so a log
/// written and trimmed at a steady rate stops growing; reads skip the emptied head.
@Suite struct RetentionTests {
    /// Rounds of 3,000 events (a third of them seen by a trip's rider, so with audience rows),
    /// each followed by a trimming pass whose retention is shorter than a round: from the
    /// second round on, each round takes the pages the one before freed, and the file stops
    /// growing (without retention it grows by a round's worth each time).
    @Test func trimmedLogReusesItsPages() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let clock = ManualClock()
        let fleet = Fleet(store: store, clock: clock.wallClock)
        let payload = "{\"padding\":\"" + String(repeating: "x", count: 200) + "\"}"
        var pages: [Int] = []
        for _ in 0..<8 {
            for _ in 0..<3 {
                let now = clock.wallClock.now
                let batch = (0..<1_000).map { i in
                    NewEvent(time: now, vehicleId: "v\(i % 7)", tripIds: i % 3 == 0 ? ["t\(i % 5)"] : [], type: "e", data: payload)
                }
                try await store.appendEvents(provider: "p", batch)
                clock.advance(by: 1)
            }
            clock.advance(by: 120)
            let pass = try await EventLogTrimmer(fleet: fleet, retention: EventRetention(duration: .seconds(60))).trim()
            #expect(pass.deleted == 3_000)
            pages.append(try StorageFailureTests.pageCount(path))
        }
        #expect(pages[7] <= pages[1] + pages[1] / 50, "page counts by round: \(pages)")
        #expect(try await store.events(after: 0, filter: .all, limit: 10).isEmpty)
        #expect(try store.integrityCheck() == "ok")
    }

    /// A trip's and a vehicle's events, read from a resume point before the log's start, come
    /// back from the oldest kept event on, in order, however many empty blocks lie between.
    @Test func audienceReadsSkipTheDeletedHead() async throws {
        let store = try SQLiteTripStore(path: temporaryDatabasePath())
        _ = try await fleet(store).createVehicle(provider: "p", id: "v1", input: vehicleInput())
        let time = Timestamp(secondsSince1970: 1_738_774_951)
        let log = (0..<5_000).map { i in
            NewEvent(time: time, vehicleId: "v1", tripIds: i % 3 == 0 ? ["t1"] : [], type: "e\(i)", data: "{}")
        }
        for start in stride(from: 0, to: log.count, by: 1_000) {
            try await store.appendEvents(provider: "p", Array(log[start..<start + 1_000]))
        }
        let all = try await store.events(after: 0, filter: .all, limit: 10_000)
        try await store.write { tx in try tx.deleteEvents(all.prefix(4_200).map(\.id)) }
        let rest = Array(all.dropFirst(4_200))
        #expect(try await store.eventLogStart() == all[4_199].id)
        #expect(try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10_000) == rest)
        #expect(
            try await store.events(after: 17, filter: .trip(provider: "p", tripId: "t1"), limit: 10_000)
                == rest.filter { $0.tripIds == ["t1"] })
        #expect(try await store.newestEvents(provider: "p", vehicleId: "v1", type: "e4999", limit: 5).map(\.id) == [all[4_999].id])
        #expect(try await store.newestEvents(provider: "p", vehicleId: "v1", type: "e10", limit: 5).isEmpty)
    }
    /// A log from before migration 0020 keeps its trips' events through it, and its events
    /// delete as before; the links no longer carry a foreign key, whose check made every
    /// deleted event scan all the links (a retention write took seconds at 100,000 links).
    @Test func linksOutliveTheirForeignKey() async throws {
        let path = try temporaryDatabasePath()
        do {
            let queue = try DatabaseQueue(path: path)
            try Migrations.migrator().migrate(queue, upTo: "0019_listing_version")
            try await queue.write { db in
                for i in 1...300 {
                    let trips = i % 3 == 0 ? ["t1"] : []
                    try db.execute(
                        sql: "INSERT INTO events (time_us, provider, vehicle_id, type, data, trip_ids) VALUES (?, 'p', 'v1', 'e', '{}', ?)",
                        arguments: [i, trips.joined(separator: ",")])
                    let id = db.lastInsertedRowID
                    for trip in trips {
                        try db.execute(
                            sql: "INSERT INTO event_trips (block, provider, trip_id, event_id) VALUES (?, 'p', ?, ?)",
                            arguments: [id >> 10, trip, id])
                    }
                }
            }
        }
        let store = try SQLiteTripStore(path: path)
        #expect(store.newlyAppliedMigrations == ["0020_event_trips_without_foreign_key", "0021_vehicle_route_checkpoints"])
        let tripEvents = try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 1_000)
        #expect(tripEvents.map(\.id) == Array(stride(from: 3, through: 300, by: 3)).map(Int64.init))
        let all = try await store.events(after: 0, filter: .all, limit: 1_000)
        try await store.write { tx in try tx.deleteEvents(all.prefix(150).map(\.id)) }
        #expect(
            try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 1_000)
                == Array(tripEvents.drop { $0.id <= 150 }))
        let (keys, links) = try await DatabaseQueue(path: path).read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(event_trips)").count,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_trips") ?? -1
            )
        }
        #expect(keys == 0)
        #expect(links == 50)
        #expect(try store.integrityCheck() == "ok")
    }
}
