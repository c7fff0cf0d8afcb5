import Foundation
import SQLiteStore
import Testing
import TripModel
import TripStore

@Suite struct CacheTests {
    struct Abort: Error {}

    /// A write that is rolled back leaves no trace in the decoded cache: the next reader
    /// sees the committed trip, not the one the failed transaction wrote.
    @Test func rolledBackWriteIsNotCached() async throws {
        let sqlite = try SQLiteTripStore(path: temporaryDatabasePath())
        let store = fleet(sqlite)
        _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: nil))
        let committed = try await store.trip(provider: "p", id: "t1")
        await #expect(throws: Abort.self) {
            try await sqlite.write { tx in
                var changed = committed
                changed.numberOfPassengers = 99
                try tx.updateTrip(provider: "p", id: "t1", changed)
                throw Abort()
            }
        }
        #expect(try await store.trip(provider: "p", id: "t1") == committed)
        // A later committed write with the same row version is read back as written.
        var input = Trip(name: "")
        input.numberOfPassengers = 3
        _ = try await store.updateTrip(provider: "p", id: "t1", input: input, mask: FieldMask("numberOfPassengers"))
        #expect(try await store.trip(provider: "p", id: "t1").numberOfPassengers == 3)
    }
}
