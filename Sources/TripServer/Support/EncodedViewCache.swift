import Synchronization
import TripModel
import TripStore

/// The JSON of trip views by trip, view and revision. Riders poll their trip every few
/// seconds and the trip changes only when its vehicle reports, so most reads find the bytes
/// already encoded. An entry is used only for the revision it was made from.
final class EncodedViewCache: Sendable {
    private struct Entry: Sendable {
        var revision: Revision
        var bytes: [UInt8]
    }

    private let entries = Mutex([String: Entry]())
    private let capacity: Int

    /// Creates a cache holding at most `capacity` views.
    init(capacity: Int = 20_000) { self.capacity = capacity }

    /// The view's JSON at `revision`, encoding it with `make` on a miss.
    func json(key: String, revision: Revision, make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let hit = entries.withLock({ $0[key] }), hit.revision == revision { return hit.bytes }
        let bytes = try make()
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first { entries[victim] = nil }
            entries[key] = Entry(revision: revision, bytes: bytes)
        }
        return bytes
    }
}
