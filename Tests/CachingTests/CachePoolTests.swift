import Caching
import Testing

/// Caches sharing a ``CachePool`` hold at most its limit between them, and the room goes to
/// what is read: the issue this answers is a server whose rider views thrashed in their fixed
/// share while the decoded vehicles' share sat idle.
@Suite struct CachePoolTests {
    /// However the inserts fall between the caches, together they never hold more than the
    /// limit, and the pool counts exactly what they hold: replacements, removals and entries
    /// too large to keep included.
    @Test func cachesTogetherStayWithinTheLimit() {
        let pool = CachePool(bytes: 1_000)
        let small = BoundedCache<Int, Int>(pool: pool, name: "small")
        let large = BoundedCache<Int, Int>(pool: pool, name: "large")
        for key in 0..<500 {
            small.setValue(key, forKey: key % 90, cost: 7)
            large.setValue(key, forKey: key % 30, cost: 40 + key % 3)
            if key % 11 == 0 { small.removeValue(forKey: key % 90) }
            #expect(pool.bytes <= 1_000, "after \(key)")
            #expect(pool.bytes == small.totalCost + large.totalCost, "after \(key)")
        }
        large.setValue(-1, forKey: -1, cost: 1_001)
        #expect(large.value(forKey: -1) == nil)
        #expect(pool.bytes == small.totalCost + large.totalCost && pool.cacheCount == 2)
    }

    /// A cache filled once and then left alone gives its room to one whose entries are read
    /// over and over: the read cache ends up holding its whole working set, twice what a fixed
    /// half of the pool would hold, and every read of the last round hits.
    @Test func anIdleCacheGivesWayToABusyOne() {
        let pool = CachePool(bytes: 1_000)
        let idle = BoundedCache<Int, Int>(pool: pool, name: "idle")
        let busy = BoundedCache<Int, Int>(pool: pool, name: "busy")
        for key in 0..<100 { idle.setValue(key, forKey: key, cost: 10) }
        #expect(idle.count == 100)
        var hits = 0
        for round in 0..<6 {
            hits = 0
            for key in 0..<90 {
                if busy.value(forKey: key) != nil {
                    hits += 1
                } else {
                    busy.setValue(key, forKey: key, cost: 10)
                }
            }
            #expect(pool.bytes <= 1_000, "round \(round)")
        }
        #expect(hits == 90)
        #expect(busy.count == 90 && idle.count <= 10)
    }

    /// An entry read between every insert survives a stream of entries read once, though the
    /// stream goes into another cache: the pool evicts what was read least recently, wherever
    /// it is, not the inserting cache's own.
    @Test func aHotEntrySurvivesAnotherCachesScan() {
        let pool = CachePool(bytes: 100)
        let hot = BoundedCache<Int, Int>(pool: pool, name: "hot")
        let scanned = BoundedCache<Int, Int>(pool: pool, name: "scanned")
        hot.setValue(0, forKey: 0, cost: 10)
        for key in 1...1_000 {
            #expect(hot.value(forKey: 0) == 0, "evicted at \(key)")
            scanned.setValue(key, forKey: key, cost: 10)
        }
        #expect(scanned.count == 9 && scanned.value(forKey: 1_000) == 1_000)
    }

    /// When every entry in the pool was read since the hands last passed, an insert still
    /// makes room (second chance, then the first entry whatever its bit), rather than
    /// overrunning the limit.
    @Test func roomIsMadeWhenEveryEntryWasRead() {
        let pool = CachePool(bytes: 100)
        let first = BoundedCache<Int, Int>(pool: pool, name: "first")
        let second = BoundedCache<Int, Int>(pool: pool, name: "second")
        for key in 0..<5 { first.setValue(key, forKey: key, cost: 10) }
        for key in 0..<5 { second.setValue(key, forKey: key, cost: 10) }
        for key in 0..<5 {
            _ = first.value(forKey: key)
            _ = second.value(forKey: key)
        }
        second.setValue(99, forKey: 99, cost: 30)
        #expect(second.value(forKey: 99) == 99)
        #expect(pool.bytes <= 100 && first.count + second.count == 8)
    }

    /// A cache that goes away takes its bytes off the pool, so its room goes to the others.
    @Test func aCacheThatGoesAwayGivesBackItsRoom() {
        let pool = CachePool(bytes: 100)
        let staying = BoundedCache<Int, Int>(pool: pool, name: "staying")
        do {
            let leaving = BoundedCache<Int, Int>(pool: pool, name: "leaving")
            for key in 0..<10 { leaving.setValue(key, forKey: key, cost: 10) }
            withExtendedLifetime(leaving) { #expect(pool.bytes == 100 && pool.cacheCount == 2) }
        }
        #expect(pool.bytes == 0 && pool.cacheCount == 1)
        for key in 0..<10 { staying.setValue(key, forKey: key, cost: 10) }
        #expect(staying.count == 10)
    }

    /// A pool of no bytes keeps nothing.
    @Test func anEmptyPoolKeepsNothing() {
        let pool = CachePool(bytes: 0)
        let cache = BoundedCache<String, Int>(pool: pool, name: "cache")
        cache.setValue(1, forKey: "a", cost: 1)
        #expect(cache.value(forKey: "a") == nil && pool.bytes == 0)
    }

    /// The pool reports each cache's entries, bytes, hits, misses and evictions, summing caches
    /// of one name: a lookup that finds an entry its reader cannot use counts as a miss, a peek
    /// counts as neither, and a removal is not an eviction.
    @Test func statisticsSayWhatEachCacheHoldsAndHowItsLookupsFared() {
        let pool = CachePool(bytes: 100)
        let views = BoundedCache<Int, Int>(pool: pool, name: "views")
        let moreViews = BoundedCache<Int, Int>(pool: pool, name: "views")
        let rows = BoundedCache<Int, Int>(pool: pool, name: "rows")
        for key in 0..<4 { views.setValue(key, forKey: key, cost: 10) }
        moreViews.setValue(7, forKey: 7, cost: 10)
        _ = views.value(forKey: 0)
        _ = views.value(forKey: 1, where: { $0 == 1 })
        _ = views.value(forKey: 2, where: { $0 == 99 })
        _ = views.value(forKey: 42)
        _ = views.peekValue(forKey: 3)
        _ = moreViews.value(forKey: 7)
        views.removeValue(forKey: 3)
        // Seven rows of 10 bytes into a pool of 100 that holds 40 (the removal gave 10 back): one entry, in either cache,
        // is evicted to make room.
        for key in 0..<7 { rows.setValue(key, forKey: key, cost: 10) }
        let statistics = pool.statistics
        let byName = Dictionary(uniqueKeysWithValues: statistics.map { ($0.name, $0) })
        #expect(statistics.map(\.name) == ["rows", "views"])
        #expect(byName["views"]?.hits == 3 && byName["views"]?.misses == 2)
        #expect(byName["rows"]?.hits == 0 && byName["rows"]?.misses == 0)
        #expect(statistics.map(\.evictions).reduce(0, +) == 1)
        #expect(statistics.map(\.entries).reduce(0, +) == 10 && statistics.map(\.bytes).reduce(0, +) == pool.bytes)
        #expect(pool.bytes == 100)
    }
}
