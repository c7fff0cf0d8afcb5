import Testing
import TripModel
import TripStore

@Suite struct TripProvidersTests {
    /// A trip ID is found under every provider that has it (the share page looks a rider's
    /// trip up by its ID alone), and under none once deleted.
    @Test(arguments: StoreKind.allCases) func providersOfTrip(kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createTrip(provider: "b", id: "t1", input: tripInput(vehicle: nil))
        _ = try await store.createTrip(provider: "a", id: "t1", input: tripInput(vehicle: nil))
        _ = try await store.createTrip(provider: "a", id: "t2", input: tripInput(vehicle: nil))
        #expect(try await store.providers(ofTrip: "t1") == ["a", "b"])
        #expect(try await store.providers(ofTrip: "t2") == ["a"])
        #expect(try await store.providers(ofTrip: "nope").isEmpty)
        try await store.deleteTrip(provider: "a", id: "t2")
        #expect(try await store.providers(ofTrip: "t2").isEmpty)
    }
}
