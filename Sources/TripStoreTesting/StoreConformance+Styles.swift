// Style changes: versioned compare-and-swap.

import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let styleChecks: [Check] = [
        Check("style versions bump on every change", styleVersionsBump),
        Check("a style saved against a stale version is aborted", staleStyleVersionIsAborted),
    ]

    static func styleStore(_ make: Factory) async throws -> any StyleStore {
        let store = try await make()
        guard let styles = store as? any StyleStore else { throw StatusError(.internal, "\(type(of: store)) keeps no styles") }
        return styles
    }

    /// Every save bumps the version, deletion included, so versions never repeat.
    static func styleVersionsBump(_ make: Factory) async throws {
        let store = try await styleStore(make)
        #expect(try await store.styleRecord(name: "default") == nil)
        let first = try await store.saveStyle(name: "default", overrides: #"{"map":{}}"#, expectedVersion: 0, time: Inputs.time)
        #expect(first.version == 1 && first.updateTime == Inputs.time)
        let deleted = try await store.saveStyle(name: "default", overrides: nil, expectedVersion: 1, time: Inputs.time)
        #expect(deleted.version == 2 && deleted.overrides == nil)
        let again = try await store.saveStyle(name: "default", overrides: "{}", expectedVersion: 2, time: Inputs.time)
        #expect(again.version == 3)
        #expect(try await store.styleRecord(name: "default") == again)
        _ = try await store.saveStyle(name: "brand", overrides: "{}", expectedVersion: 0, time: Inputs.time)
        #expect(try await store.styleRecords().map(\.name) == ["brand", "default"])
    }

    /// A save against a stale version is ABORTED and changes nothing.
    static func staleStyleVersionIsAborted(_ make: Factory) async throws {
        let store = try await styleStore(make)
        _ = try await store.saveStyle(name: "night", overrides: "{}", expectedVersion: 0, time: Inputs.time)
        let error = await #expect(throws: StatusError.self) {
            try await store.saveStyle(name: "night", overrides: #"{"x":1}"#, expectedVersion: 0, time: Inputs.time)
        }
        #expect(error?.code == .aborted)
        #expect(try await store.styleRecord(name: "night")?.overrides == "{}")
    }
}
