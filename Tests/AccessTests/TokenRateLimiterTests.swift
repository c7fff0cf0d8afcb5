import AccessTesting
import Testing
import TripModelTesting

@testable import Access

/// Per-token request budgets (``TokenRateLimiter``), the same for both wires.
@Suite struct TokenRateLimiterTests {
    static let rate = TokenRateLimiter.Rate(requestsPerSecond: 2, burst: 5)

    /// A token may make its burst at once, then one request per 1/rate seconds; the answer
    /// says how long to wait.
    @Test func tokenBucket() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: Self.rate, server: nil), now: clock.seconds)
        for _ in 0..<5 { #expect(limiter.admit(key: "a", role: .driver) == nil) }
        #expect(limiter.admit(key: "a", role: .driver) == 0.5)
        #expect(limiter.admit(key: "b", role: .consumer) == nil, "each token has its own budget")
        clock.advance(by: 0.25)
        #expect(limiter.admit(key: "a", role: .driver) == 0.25)
        clock.advance(by: 0.25)
        #expect(limiter.admit(key: "a", role: .driver) == nil)
        #expect(limiter.admit(key: "a", role: .driver) != nil)
        clock.advance(by: 60)
        for _ in 0..<5 { #expect(limiter.admit(key: "a", role: .driver) == nil) }
        #expect(limiter.admit(key: "a", role: .driver) != nil, "a quiet minute refills the burst, no more")
    }

    /// Server tokens are not limited by default; driver and consumer tokens are, at 10 a
    /// second with bursts of 100.
    @Test func standardPolicy() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(now: clock.seconds)
        for _ in 0..<10_000 { #expect(limiter.admit(key: "backend", role: .server) == nil) }
        var admitted = 0
        while limiter.admit(key: "rider", role: .consumer) == nil { admitted += 1 }
        #expect(admitted == 100)
        clock.advance(by: 1)
        admitted = 0
        while limiter.admit(key: "rider", role: .consumer) == nil { admitted += 1 }
        #expect(admitted == 10)
    }

    /// The budget is the caller's, as its verified claims name it: tokens minted apart for the
    /// same claims (so spelled differently) share one, and another vehicle's driver has its own.
    @Test func budgetIsTheCallersNotTheTokenText() async throws {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: Self.rate, server: nil), now: clock.seconds)
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        let authenticator = Authenticator(authority: authority, limiter: limiter)
        let driver = ["provider": "p", "vehicleid": "v1"]
        var spellings: [String] = []
        for issued in 0..<3 { spellings.append(try await forge(issuedAt: Double(-issued), role: "driver", authorization: driver)) }
        #expect(Set(spellings).count == 3)
        for index in 0..<5 { _ = try await authenticator.principal(token: spellings[index % 3]) }
        for token in spellings {
            await #expect(throws: AccessDenied.rateLimited(retryAfter: 0.5)) { try await authenticator.principal(token: token) }
        }
        let other = try await forge(role: "driver", authorization: ["provider": "p", "vehicleid": "v2"])
        #expect(try await authenticator.principal(token: other).vehicleId == "v2", "another vehicle's driver has its own budget")
    }

    /// Memory is bounded: past the capacity, refilled buckets (the same as none) go first,
    /// then the oldest tenth.
    @Test func boundedBuckets() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: Self.rate, server: nil), capacity: 100, now: clock.seconds)
        for i in 0..<100 { _ = limiter.admit(key: "old\(i)", role: .driver) }
        #expect(limiter.count == 100)
        clock.advance(by: 10)
        _ = limiter.admit(key: "new", role: .driver)
        #expect(limiter.count == 1)
        for i in 0..<200 { _ = limiter.admit(key: "busy\(i)", role: .driver) }
        #expect(limiter.count <= 100)
        // A token still drained keeps its state if it is not among the oldest.
        for _ in 0..<10 { _ = limiter.admit(key: "busy199", role: .driver) }
        #expect(limiter.admit(key: "busy199", role: .driver) != nil)
    }
}
