import Caching
import Testing

@Suite struct CacheBudgetTests {
    /// The caches' shares never add up to more than the budget a server was given, and a
    /// budget of 0 turns every cache off.
    @Test func sharesStayWithinTheBudget() {
        for megabytes in [0, 1, 64, 256, 4_096] {
            let budget = CacheBudget(megabytes: megabytes)
            let shares = [
                budget.decodedVehicles, budget.decodedTrips, budget.composedTrips, budget.encodedViews, budget.messageViews,
                budget.verifiedTokens, budget.databasePages, budget.unfinishedTripLists,
            ]
            #expect(shares.allSatisfy { $0 >= 0 })
            #expect(shares.reduce(0, +) <= budget.bytes)
            #expect(shares.reduce(0, +) >= budget.bytes * 99 / 100, "a share of \(budget) is left to nobody")
        }
        #expect(CacheBudget(megabytes: 0).verifiedTokens == 0)
        #expect(CacheBudget(megabytes: 256).bytes == 256 << 20)
        #expect(CacheBudget(megabytes: -5).bytes == 0)
    }
}
