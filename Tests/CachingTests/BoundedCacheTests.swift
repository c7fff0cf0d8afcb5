import Caching
import Testing

@Suite struct BoundedCacheTests {
    /// Never more entries than the capacity; a full cache evicts an entry nobody has read
    /// since the hand last passed, and keeps the ones read (CLOCK, second chance).
    @Test func evictsWhatWasNotReadFirst() {
        let cache = BoundedCache<Int, String>(capacity: 3)
        for key in 1...3 { cache.setValue("\(key)", forKey: key) }
        #expect(cache.value(forKey: 1) == "1")
        #expect(cache.value(forKey: 3) == "3")
        cache.setValue("4", forKey: 4)
        #expect(cache.count == 3)
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.value(forKey: 1) == "1" && cache.value(forKey: 3) == "3" && cache.value(forKey: 4) == "4")
    }

    /// An entry read over and over survives a stream of entries read once.
    @Test func aHotEntrySurvivesAScan() {
        let cache = BoundedCache<Int, Int>(capacity: 8)
        cache.setValue(0, forKey: 0)
        for key in 1...1_000 {
            #expect(cache.value(forKey: 0) == 0, "evicted at \(key)")
            cache.setValue(key, forKey: key)
            #expect(cache.count <= 8)
        }
        #expect(cache.value(forKey: 1_000) == 1_000)
    }

    /// The cost bound holds too: entries are evicted until a new one fits, and one that
    /// alone exceeds the bound is not cached.
    @Test func costLimit() {
        let cache = BoundedCache<String, [UInt8]>(capacity: 100, costLimit: 10)
        cache.setValue([1, 2, 3, 4], forKey: "a", cost: 4)
        cache.setValue([5, 6, 7, 8], forKey: "b", cost: 4)
        #expect(cache.totalCost == 8)
        cache.setValue([9, 9, 9], forKey: "c", cost: 3)
        #expect(cache.totalCost <= 10 && cache.count == 2)
        #expect(cache.value(forKey: "c") == [9, 9, 9])
        cache.setValue(Array(repeating: 0, count: 11), forKey: "huge", cost: 11)
        #expect(cache.value(forKey: "huge") == nil && cache.totalCost <= 10)
    }

    /// Replacing a key keeps one entry with the new value and cost; removing frees its cost.
    @Test func replaceAndRemove() {
        let cache = BoundedCache<String, Int>(capacity: 2, costLimit: 100)
        cache.setValue(1, forKey: "k", cost: 10)
        cache.setValue(2, forKey: "k", cost: 30)
        #expect(cache.count == 1 && cache.totalCost == 30 && cache.value(forKey: "k") == 2)
        #expect(cache.removeValue(forKey: "k") == 2)
        #expect(cache.count == 0 && cache.totalCost == 0 && cache.value(forKey: "k") == nil)
        #expect(cache.removeValue(forKey: "k") == nil)
        for key in ["a", "b", "c", "d"] { cache.setValue(0, forKey: key) }
        #expect(cache.count == 2)
    }

    /// A value replaced by a costlier one keeps its place and pushes others out to fit;
    /// replaced by one too costly to cache, it is gone.
    @Test func replacementRespectsTheCostLimit() {
        let cache = BoundedCache<String, Int>(capacity: 10, costLimit: 10)
        cache.setValue(1, forKey: "a", cost: 4)
        cache.setValue(2, forKey: "b", cost: 4)
        cache.setValue(3, forKey: "a", cost: 8)
        #expect(cache.value(forKey: "a") == 3 && cache.value(forKey: "b") == nil && cache.totalCost == 8)
        cache.setValue(4, forKey: "a", cost: 11)
        #expect(cache.value(forKey: "a") == nil && cache.count == 0 && cache.totalCost == 0)
    }

    /// `value(forKey:orMake:)` makes a value once and then serves it; a throwing maker
    /// caches nothing.
    @Test func makesOnAMiss() throws {
        struct Failed: Error {}
        let cache = BoundedCache<String, Int>(capacity: 4)
        var made = 0
        #expect(
            cache.value(forKey: "x") {
                made += 1
                return 7
            } == 7)
        #expect(
            cache.value(forKey: "x") {
                made += 1
                return 8
            } == 7)
        #expect(made == 1)
        #expect(throws: Failed.self) { try cache.value(forKey: "y") { throw Failed() } }
        #expect(cache.value(forKey: "y") == nil)
    }

    /// Many tasks reading and writing at once never exceed the bound or lose a value they
    /// just wrote under a key nobody else writes.
    @Test func concurrentUse() async {
        let cache = BoundedCache<Int, Int>(capacity: 64)
        await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var consistent = true
                    for step in 0..<2_000 {
                        let key = task * 10_000 + step % 100
                        cache.setValue(step, forKey: key)
                        if let value = cache.value(forKey: key), value != step { consistent = false }
                    }
                    return consistent
                }
            }
            for await consistent in group { #expect(consistent) }
        }
        #expect(cache.count <= 64)
    }
}
