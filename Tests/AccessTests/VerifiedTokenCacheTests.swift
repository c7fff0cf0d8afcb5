import Caching
import Testing
import TripModel

@testable import Access

/// Verified tokens are kept in the process's cache pool (``CacheBudget/caches``), so that a
/// rider polling with the same token skips the signature check however large the fleet.
@Suite struct VerifiedTokenCacheTests {
    /// A rider's token, as a provider's backend mints one per trip, costs about 600 bytes in
    /// the cache: the default budget's pool could keep the tokens of 50,000 riders several
    /// times over (issue 30: a count of 20,000 made every rider of a 50,000-trip fleet wait
    /// for a signature check most of the time).
    @Test func theDefaultBudgetHoldsFiftyThousandRiders() async throws {
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        let principal = Principal(role: .consumer, provider: "load", tripId: "t49999")
        let token = try await authority.mint(principal)
        let verified = try await authority.verify(token)
        #expect(verified == principal)
        let bytes = VerifiedToken(principal: verified, expires: 0, notBefore: 0).approximateBytes(token: token)
        #expect(bytes > token.utf8.count && bytes < 1_000, "\(bytes) bytes for a \(token.utf8.count)-character token")
        #expect(CacheBudget.standard.caches.limit / bytes >= 5 * 50_000)
    }

    /// A budget that holds a few tokens keeps no more than fit, and every token still verifies
    /// (an evicted one is checked again); a budget of 0 keeps none.
    @Test func aSmallBudgetKeepsWhatFits() async throws {
        let small = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch), tokenCache: CachePool(bytes: 10 * 700))
        let none = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch), tokenCache: CachePool(bytes: 0))
        var tokens: [String] = []
        for i in 0..<100 { tokens.append(try await small.mint(Principal(role: .consumer, provider: "load", tripId: "t\(i)"))) }
        for round in 0..<2 {
            for (i, token) in tokens.enumerated() {
                #expect(try await small.verify(token).tripId == "t\(i)", "round \(round)")
                #expect(try await none.verify(token).tripId == "t\(i)")
            }
        }
        let principal = Principal(role: .consumer, provider: "load", tripId: "t0")
        let bytes = VerifiedToken(principal: principal, expires: 0, notBefore: 0).approximateBytes(token: tokens[0])
        #expect(small.verifiedTokenCount > 0 && small.verifiedTokenCount <= 10 * 700 / bytes)
        #expect(none.verifiedTokenCount == 0)
    }
}
