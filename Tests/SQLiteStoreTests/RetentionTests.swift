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
}
