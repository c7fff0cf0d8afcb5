import Foundation
import SQLiteStore
import Testing
import TripStore

/// Secrets kept with the data (migration 0014), as the PostgreSQL store keeps them.
@Suite struct SecretStoreTests {
    /// A secret is created once, and read back by the store opened again on the same file
    /// (a restart): the first caller's wins, later ones read it.
    @Test func secretIsCreatedOnceAndKept() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        async let first = store.secret(named: "event-stream-ids", orCreate: { Array(repeating: 1, count: 32) })
        async let second = store.secret(named: "event-stream-ids", orCreate: { Array(repeating: 2, count: 32) })
        let (a, b) = try await (first, second)
        #expect(a.secret == b.secret)
        #expect(a.created != b.created)
        let reopened = try SQLiteTripStore(path: path)
        let again = try await reopened.secret(named: "event-stream-ids", orCreate: { [3] })
        #expect(again.secret == a.secret && !again.created)
        let other = try await reopened.secret(named: "another", orCreate: { [4, 5] })
        #expect(other.secret == [4, 5] && other.created)
    }
}
