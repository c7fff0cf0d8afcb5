/// A store that several server processes share (DESIGN §11: PostgreSQL behind stateless
/// `serve` processes). Whatever decides an answer lives in the database, so any process can
/// serve any request; what a process needs besides is to hear of the others' writes, so that
/// its event streams deliver them without polling.
///
/// The embedded stores are not shared (one process owns an SQLite file), so they do not
/// conform; callers ask with `as? any SharedTripStore`.
public protocol SharedTripStore: TripStore {
    /// The ids of the newest event of each write that logged events and committed through
    /// another process (or another store object on the same database), as they commit; the
    /// stream reconnects by itself when the database is lost, yields once more when it is
    /// back (events may have been missed meanwhile), and ends when the caller stops iterating.
    func eventCommits() -> AsyncStream<Int64>
}

/// Secrets every process sharing a store must agree on, such as the token signing key
/// (DESIGN §4), kept in the store instead of a data directory.
package protocol SecretStore: Sendable {
    /// The secret called `name`: the stored one, or `make()`'s, stored now (`created` true)
    /// when there was none. Processes asking at the same time all get the one stored first.
    func secret(named name: String, orCreate make: @escaping @Sendable () -> [UInt8]) async throws -> (secret: [UInt8], created: Bool)
}
