import Foundation
import Testing
import TripModel
@testable import TripStore

@Suite struct CacheTests {
    struct Abort: Error {}

    /// A write that is rolled back leaves no trace in the decoded cache: the next reader
    /// sees the committed trip, not the one the failed transaction wrote.
    @Test func rolledBackWriteIsNotCached() async throws {
        let store = try SQLiteTripStore(path: temporaryDatabasePath())
        _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: nil))
        let committed = try await store.trip(provider: "p", id: "t1")
        await #expect(throws: Abort.self) {
            try await store.write { tx, _ in
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
