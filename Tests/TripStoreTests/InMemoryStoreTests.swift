import Testing
import TripStore
import TripStoreTesting

@Suite struct InMemoryStoreTests {
    /// The in-memory store does everything every store must (TripStoreTesting's checks).
    @Test(arguments: StoreConformance.checks) func conformance(_ check: StoreConformance.Check) async throws {
        try await check.run { InMemoryTripStore() }
    }
}
