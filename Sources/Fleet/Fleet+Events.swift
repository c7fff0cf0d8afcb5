import Synchronization
import TripStore

extension Fleet {
    /// Events after `afterID` that match `filter`, oldest first, at most `limit`.
    package func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        try await store.events(after: afterID, filter: filter, limit: limit)
    }

    /// The ID of the newest event, 0 when there is none.
    package func latestEventID() async throws -> Int64 {
        try await store.latestEventID()
    }

    /// The ID after which the log is whole (retention deleted nothing after it): a reader
    /// whose last event is older may have missed events, and should read the state anew.
    package func eventLogStart() async throws -> Int64 {
        try await store.eventLogStart()
    }

    /// How the stream `filter` selects numbers its events for its client (``EventStreamIDs``):
    /// under a secret the store keeps (so every server on a shared database, and this one
    /// after a restart, numbers a stream alike), or one of this fleet's for a store that keeps
    /// none.
    package func eventStreamIDs(for filter: EventFilter) async throws -> EventStreamIDs {
        EventStreamIDs(key: try await eventIDKey.key(from: store), stream: filter)
    }
}

/// The secret event stream IDs are keyed with, read from the store once.
final class EventIDKey: Sendable {
    /// Its name among the store's secrets.
    static let secretName = "event-stream-ids"
    private let cached = Mutex<[UInt8]?>(nil)

    func key(from store: any TripStore) async throws -> [UInt8] {
        if let key = cached.withLock({ $0 }) { return key }
        let key: [UInt8]
        if let secrets = store as? any SecretStore {
            key = try await secrets.secret(named: Self.secretName, orCreate: Self.random).secret
        } else {
            key = Self.random()
        }
        return cached.withLock { cached in
            if let earlier = cached { return earlier }
            cached = key
            return key
        }
    }

    @Sendable static func random() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
