// The bytes that a server's caches hold between them (issue 30). With a fixed share each, a
// cache whose entries nobody reads kept its share while the one riders read thrashed: a rider
// reading trips at random in a fleet of 50,000 found its trip's view encoded one time in five,
// with the decoded vehicles' share, 40% of the budget, idle until the next location update.
// In a pool, a cache that needs room takes it from whichever cache holds what was read least
// recently, so the budget follows the work.
//
// The caches keep their own rings and locks (a hit stays a lookup under one cache's lock).
// Before an insert that would take the pool past its limit, the pool's sweep visits the caches
// in turn; each visit moves that cache's CLOCK hand over a sixty-fourth of its ring (a small
// ring's hand moves one position every few visits), clearing reference bits, and evicts the
// first entry found unread since the hand last passed. So every cache's hand goes round once
// in 64 visits, whatever its size: an entry in any cache survives if it was read within about
// as many of the pool's rounds, which is CLOCK over all the entries of all the caches.

import Synchronization

/// A byte limit shared by several ``BoundedCache``s: together they hold at most ``limit``
/// estimated bytes, and one that needs room evicts the entries read least recently in any of
/// them.
package final class CachePool: Sendable {
    /// The most estimated bytes the caches hold together.
    package let limit: Int
    private let held = Atomic<Int>(0)
    private let sweep = Mutex(Sweep())

    private struct Sweep {
        var members: [Member] = []
        var turn = 0
    }

    /// A cache in the pool; weak, so that a cache's owner alone decides how long it lives.
    private struct Member {
        weak var cache: (any PooledCache)?
    }

    /// A pool whose caches hold at most `bytes` between them (negative counts as 0).
    package init(bytes: Int) { limit = max(0, bytes) }

    /// The estimated bytes the caches hold now.
    package var bytes: Int { held.load(ordering: .relaxed) }

    /// Whether the caches hold about as much as the limit allows (within a 32nd of it): what
    /// is stored now makes room by evicting, so a cache may rather store a smaller form of an
    /// entry than push out another whole one.
    package var isFull: Bool { bytes >= limit - limit / 32 }

    /// How many caches share the pool (for tests).
    package var cacheCount: Int { sweep.withLock { $0.members.filter { $0.cache != nil }.count } }

    /// What each of the pool's caches holds and how its lookups fared, one figure per name
    /// (caches of the same name summed), in name order: for `/metrics`, so that an operator
    /// sees which cache misses before choosing a budget.
    package var statistics: [CacheStatistics] {
        let caches = sweep.withLock { $0.members.compactMap(\.cache) }
        var byName: [String: CacheStatistics] = [:]
        for figures in caches.map(\.statistics) {
            byName[figures.name, default: CacheStatistics(name: figures.name)].add(figures)
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    func join(_ cache: any PooledCache) {
        sweep.withLock { $0.members.append(Member(cache: cache)) }
    }

    /// Counts `delta` bytes more (or fewer) held.
    @usableFromInline
    func charge(_ delta: Int) {
        if delta != 0 { held.add(delta, ordering: .relaxed) }
    }

    /// Evicts from the caches in turn until they hold no more than the limit less `room`.
    /// Called with no cache's lock held: the sweep takes the pool's lock, then one cache's at a
    /// time.
    @usableFromInline
    func settle(leaving room: Int = 0) {
        let target = limit - room
        guard held.load(ordering: .relaxed) > target else { return }
        sweep.withLock { sweep in
            // Visits in a row that evicted nothing. Every hand goes round in 64 visits, so after
            // 65 rounds of them every entry was passed: a cache then evicts as plain CLOCK does,
            // the first entry whatever its bit (reads keep setting them); after twice as many,
            // nothing is left to evict.
            var fruitless = 0
            while held.load(ordering: .relaxed) > target, !sweep.members.isEmpty, fruitless < 130 * sweep.members.count {
                sweep.turn = (sweep.turn + 1) % sweep.members.count
                guard let cache = sweep.members[sweep.turn].cache else {
                    sweep.members.remove(at: sweep.turn)
                    continue
                }
                if cache.evictForPool(force: fruitless >= 65 * sweep.members.count) {
                    fruitless = 0
                } else {
                    fruitless += 1
                }
            }
        }
    }
}

/// A cache whose entries count against a ``CachePool``.
protocol PooledCache: AnyObject, Sendable {
    /// Moves the cache's hand over a stretch of its ring and evicts the first entry not read
    /// since the hand last passed it; with `force`, the first entry whatever its bit. Whether
    /// one was evicted.
    func evictForPool(force: Bool) -> Bool

    /// What the cache holds and how its lookups fared.
    var statistics: CacheStatistics { get }
}
