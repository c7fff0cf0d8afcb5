import Caching
import TripStore

/// The JSON of trip views by trip, view and revision. Riders poll their trip every few
/// seconds and the trip changes only when its vehicle reports, so most reads find the bytes
/// already encoded. An entry is used only for the revision it was made from.
struct EncodedViewCache: Sendable {
    private struct Entry: Sendable {
        var revision: Revision
        var bytes: [UInt8]
    }

    private let entries: BoundedCache<String, Entry>

    /// Creates a cache holding at most `capacity` views and `byteLimit` bytes of them (a view
    /// of a long route runs to hundreds of kilobytes).
    init(capacity: Int = 20_000, byteLimit: Int = 256 << 20) {
        entries = BoundedCache(capacity: capacity, costLimit: byteLimit)
    }

    /// The view's JSON at `revision`, encoding it with `make` on a miss.
    func json(key: String, revision: Revision, make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let hit = entries.value(forKey: key), hit.revision == revision { return hit.bytes }
        let bytes = try make()
        entries.setValue(Entry(revision: revision, bytes: bytes), forKey: key, cost: bytes.count)
        return bytes
    }
}
