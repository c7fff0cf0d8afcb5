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

    /// Creates a cache holding views of at most `byteLimit` bytes in all (a view of a long
    /// route runs to hundreds of kilobytes, a rider's view of a 500-point route to about 4 KB),
    /// counting each entry's key and bookkeeping beside its JSON.
    init(byteLimit: Int = CacheBudget.standard.encodedViews) {
        entries = BoundedCache(capacity: .max, costLimit: byteLimit)
    }

    /// The view's JSON at `revision`, encoding it with `make` on a miss.
    func json(key: String, revision: Revision, make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let hit = entries.value(forKey: key), hit.revision == revision { return hit.bytes }
        let bytes = try make()
        entries.setValue(Entry(revision: revision, bytes: bytes), forKey: key, cost: bytes.count + key.utf8.count + Self.entryOverhead)
        return bytes
    }

    /// An entry's bookkeeping: the array's and the key's heap headers, its slots in the cache.
    private static let entryOverhead = 160
}
