import TripStore

extension Fleet {
    /// Events after `afterID` that match `filter`, oldest first, at most `limit`.
    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        try await store.events(after: afterID, filter: filter, limit: limit)
    }

    /// The ID of the newest event, 0 when there is none.
    public func latestEventID() async throws -> Int64 {
        try await store.latestEventID()
    }

    /// The ID after which the log is whole (retention deleted nothing after it): a reader
    /// whose last event is older may have missed events, and should read the state anew.
    public func eventLogStart() async throws -> Int64 {
        try await store.eventLogStart()
    }
}
