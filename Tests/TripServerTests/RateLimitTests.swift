import Access
import Hummingbird
import Synchronization
import Testing
import TripModel
import TripModelTesting
import TripServer
import TripServerTesting

@Suite struct RateLimitTests {
    /// Over its rate, a token gets 429 RESOURCE_EXHAUSTED with Retry-After in whole seconds,
    /// on the API and on its share page; other tokens and server tokens go on.
    @Test func answers429WithRetryAfter() async throws {
        let clock = ManualClock()
        let limiter = TokenRateLimiter(policy: .init(driverAndConsumer: .init(requestsPerSecond: 0.5, burst: 3), server: nil), now: clock.seconds)
        let harness = try await Harness(rateLimiter: limiter)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await harness.seed(client)
            for _ in 0..<3 { try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", token: rider) }
            let limited = try await client.expect(.tooManyRequests, .get, "/v1/providers/p/trips/t1", token: rider)
            #expect(limited.errorStatus == "RESOURCE_EXHAUSTED")
            #expect(limited.headers[.retryAfter] == "2")
            #expect(limited.errorMessage.contains("retry after 2 s"))
            let page = try await client.send(.get, "/share/\(rider)")
            #expect(page.status == .tooManyRequests)
            let otherRider = Principal(role: .consumer, provider: "p", tripId: "t1", subject: "another rider")
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: otherRider)
            for _ in 0..<20 { try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.server) }
            clock.advance(by: 2)
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", token: rider)
        }
    }
}
