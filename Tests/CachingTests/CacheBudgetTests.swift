import Caching
import Testing

@Suite struct CacheBudgetTests {
    /// SQLite's pages and the caches' pool never add up to more than the budget a server was
    /// given, and a budget of 0 turns every cache off.
    @Test func sharesStayWithinTheBudget() {
        for megabytes in [0, 1, 64, 256, 4_096] {
            let budget = CacheBudget(megabytes: megabytes)
            let shares = [budget.caches.limit, budget.databasePages]
            #expect(shares.allSatisfy { $0 >= 0 })
            #expect(shares.reduce(0, +) <= budget.bytes)
            #expect(shares.reduce(0, +) >= budget.bytes * 99 / 100, "a share of \(budget) is left to nobody")
        }
        #expect(CacheBudget(megabytes: 0).caches.limit == 0)
        #expect(CacheBudget(megabytes: 256).bytes == 256 << 20)
        #expect(CacheBudget(megabytes: -5).bytes == 0)
    }

    /// Each budget has a pool of its own: two servers' caches in one process (or two tests')
    /// never take each other's room.
    @Test func eachBudgetHasItsOwnPool() {
        let first = CacheBudget(megabytes: 1)
        let second = CacheBudget(megabytes: 1)
        #expect(first == second && first.caches !== second.caches)
        let cache = BoundedCache<Int, Int>(pool: first.caches, name: "cache")
        cache.setValue(1, forKey: 1, cost: 1_000)
        #expect(first.caches.bytes == 1_000 && second.caches.bytes == 0)
    }
}
