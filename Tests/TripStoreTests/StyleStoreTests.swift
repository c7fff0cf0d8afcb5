import Foundation
import Testing
import TripModel
import TripStore

@Suite struct StyleStoreTests {
    func styleStore(_ kind: StoreKind) throws -> any StyleStore {
        guard let store = try kind.make() as? any StyleStore else { throw FleetError(.internal, "\(kind) is no StyleStore") }
        return store
    }

    /// Every save bumps the version, deletion included, so versions never repeat.
    @Test(arguments: StoreKind.allCases) func versionsBumpOnEveryChange(kind: StoreKind) async throws {
        let store = try styleStore(kind)
        #expect(try await store.styleRecord(name: "default") == nil)
        let first = try await store.saveStyle(name: "default", overrides: #"{"map":{}}"#, expectedVersion: 0)
        #expect(first.version == 1)
        let deleted = try await store.saveStyle(name: "default", overrides: nil, expectedVersion: 1)
        #expect(deleted.version == 2 && deleted.overrides == nil)
        let again = try await store.saveStyle(name: "default", overrides: "{}", expectedVersion: 2)
        #expect(again.version == 3)
        #expect(try await store.styleRecord(name: "default") == again)
        _ = try await store.saveStyle(name: "brand", overrides: "{}", expectedVersion: 0)
        #expect(try await store.styleRecords().map(\.name) == ["brand", "default"])
    }

    /// A save against a stale version is ABORTED and changes nothing.
    @Test(arguments: StoreKind.allCases) func staleVersionIsAborted(kind: StoreKind) async throws {
        let store = try styleStore(kind)
        _ = try await store.saveStyle(name: "night", overrides: "{}", expectedVersion: 0)
        let error = await #expect(throws: FleetError.self) {
            try await store.saveStyle(name: "night", overrides: #"{"x":1}"#, expectedVersion: 0)
        }
        #expect(error?.code == .aborted)
        #expect(try await store.styleRecord(name: "night")?.overrides == "{}")
    }

    /// Stored styles survive reopening the database.
    @Test func sqliteKeepsStyles() async throws {
        let path = try temporaryDatabasePath()
        _ = try await SQLiteTripStore(path: path).saveStyle(name: "brand", overrides: #"{"map":{}}"#, expectedVersion: 0)
        let record = try await SQLiteTripStore(path: path).styleRecord(name: "brand")
        #expect(record?.overrides == #"{"map":{}}"# && record?.version == 1)
    }
}
