import Caching

/// Encoded trip views by trip, view and revision, for the transports that answer them: REST
/// keeps their JSON, gRPC their protobuf encoding. Riders poll their trip every few seconds
/// and the trip changes only when its vehicle reports, so most reads find the view already
/// encoded. An entry is used only for the revision it was made from, so a write anywhere, on
/// any server, is never answered stale.
package struct EncodedViewCache<Encoded: EncodedView>: Sendable {
    private struct Entry: Sendable {
        var revision: Revision
        var encoded: Encoded
    }

    private let entries: BoundedCache<String, Entry>

    /// Creates a cache of views whose bytes count against `pool` (a view of a long route runs
    /// to hundreds of kilobytes, a rider's view of a 500-point route to about 2.5 KB), counting
    /// each entry's key and bookkeeping beside its encoding; `/metrics` names it `name`.
    package init(pool: CachePool, name: String) {
        entries = BoundedCache(pool: pool, name: name)
    }

    /// The view's encoding at `revision`, if kept.
    package func cached(key: String, revision: Revision) -> Encoded? {
        entries.value(forKey: key, where: { $0.revision == revision })?.encoded
    }

    /// The view's encoding at `revision`, made by `make` on a miss. `missed`: the caller's
    /// ``cached(key:revision:)`` just missed this revision, so it is not looked up (and counted
    /// as a miss) again.
    package func encoded(key: String, revision: Revision, missed: Bool = false, make: () throws -> Encoded) rethrows -> Encoded {
        if !missed, let hit = cached(key: key, revision: revision) { return hit }
        let encoded = try make()
        entries.setValue(
            Entry(revision: revision, encoded: encoded), forKey: key,
            cost: encoded.encodedByteCount + key.utf8.count + Self.entryOverhead)
        return encoded
    }

    /// An entry's bookkeeping: the encoding's and the key's heap headers, its slots in the
    /// cache.
    private static var entryOverhead: Int { 160 }
}

/// A view's encoding as a cache holds it.
package protocol EncodedView: Sendable {
    /// The bytes of the encoding (what an entry costs, beside its key and bookkeeping).
    var encodedByteCount: Int { get }
}

extension Array: EncodedView where Element == UInt8 {
    package var encodedByteCount: Int { count }
}
