import TestKit
import Testing

@testable import Access

/// Per-token request budgets (``TokenRateLimiter``), the same for both wires.
@Suite struct TokenRateLimiterTests {
    static let rate = TokenRateLimiter.Rate(requestsPerSecond: 2, burst: 5)

    /// A token may make its burst at once, then one request per 1/rate seconds; the answer
    /// says how long to wait.
    @Test func tokenBucket() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: Self.rate, server: nil), now: clock.seconds)
        for _ in 0..<5 { #expect(limiter.admit(token: "a", role: .driver) == nil) }
        #expect(limiter.admit(token: "a", role: .driver) == 0.5)
        #expect(limiter.admit(token: "b", role: .consumer) == nil, "each token has its own budget")
        clock.advance(by: 0.25)
        #expect(limiter.admit(token: "a", role: .driver) == 0.25)
        clock.advance(by: 0.25)
        #expect(limiter.admit(token: "a", role: .driver) == nil)
        #expect(limiter.admit(token: "a", role: .driver) != nil)
        clock.advance(by: 60)
        for _ in 0..<5 { #expect(limiter.admit(token: "a", role: .driver) == nil) }
        #expect(limiter.admit(token: "a", role: .driver) != nil, "a quiet minute refills the burst, no more")
    }

    /// Server tokens are not limited by default; driver and consumer tokens are, at 10 a
    /// second with bursts of 100.
    @Test func standardPolicy() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(now: clock.seconds)
        for _ in 0..<10_000 { #expect(limiter.admit(token: "backend", role: .server) == nil) }
        var admitted = 0
        while limiter.admit(token: "rider", role: .consumer) == nil { admitted += 1 }
        #expect(admitted == 100)
        clock.advance(by: 1)
        admitted = 0
        while limiter.admit(token: "rider", role: .consumer) == nil { admitted += 1 }
        #expect(admitted == 10)
    }

    /// Memory is bounded: past the capacity, refilled buckets (the same as none) go first,
    /// then the oldest tenth.
    @Test func boundedBuckets() {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: Self.rate, server: nil), capacity: 100, now: clock.seconds)
        for i in 0..<100 { _ = limiter.admit(token: "old\(i)", role: .driver) }
        #expect(limiter.count == 100)
        clock.advance(by: 10)
        _ = limiter.admit(token: "new", role: .driver)
        #expect(limiter.count == 1)
        for i in 0..<200 { _ = limiter.admit(token: "busy\(i)", role: .driver) }
        #expect(limiter.count <= 100)
        // A token still drained keeps its state if it is not among the oldest.
        for _ in 0..<10 { _ = limiter.admit(token: "busy199", role: .driver) }
        #expect(limiter.admit(token: "busy199", role: .driver) != nil)
    }
}
