import Access
import Foundation
import Synchronization
import Testing
import TripModelTesting

@testable import TripServer

/// Pictures cost what they draw (issue 29, item 5): a per-token pixel budget, and a drawing
/// queue that bounds how many are drawn and wait at once.
@Suite struct PictureCostTests {
    static let rider = Principal(role: .consumer, provider: "p", tripId: "t1")
    static let otherRider = Principal(role: .consumer, provider: "p", tripId: "t2")

    /// A token draws its burst at once, then is refused with 429 and the wait until the
    /// picture would fit; the budget refills at its rate. Another token has a budget of its own.
    @Test func tokenSpendsItsBurstThenWaits() throws {
        let clock = ManualClock()
        let budget = PixelBudget(pixelsPerSecond: 1_000_000, burst: 3_000_000, now: clock.seconds)
        for _ in 0..<3 { try budget.spend(1_000_000, by: Self.rider) }
        let refused = try #require(throws: APIError.self) { try budget.spend(2_000_000, by: Self.rider) }
        #expect(refused.status == .tooManyRequests)
        #expect(refused.code == .resourceExhausted)
        #expect(refused.headers[.retryAfter] == "2")
        #expect(refused.message.contains("1 million a second"))
        try budget.spend(3_000_000, by: Self.otherRider)

        clock.advance(by: 1.5)
        #expect(throws: APIError.self) { try budget.spend(2_000_000, by: Self.rider) }
        clock.advance(by: 0.5)
        try budget.spend(2_000_000, by: Self.rider)
    }

    /// A picture larger than the whole burst is drawn once the bucket is full, and costs the
    /// burst; server tokens and a budget without a rate are not limited.
    @Test func outsizedPicturesAndUnlimitedTokens() throws {
        let clock = ManualClock()
        let budget = PixelBudget(pixelsPerSecond: 1_000_000, burst: 2_000_000, now: clock.seconds)
        try budget.spend(50_000_000, by: Self.rider)
        #expect(throws: APIError.self) { try budget.spend(1, by: Self.rider) }
        for _ in 0..<10 { try budget.spend(50_000_000, by: Principal(role: .server, provider: "p")) }
        let unlimited = PixelBudget(pixelsPerSecond: nil, now: clock.seconds)
        for _ in 0..<10 { try unlimited.spend(50_000_000, by: Self.rider) }
    }

    /// With its threads busy and its queue full, one more picture is answered 503 at once;
    /// once they are drawn, pictures are drawn again.
    @Test func drawingQueueRefusesBeyondItsBound() async throws {
        let queue = RenderQueue(threadCount: 1, maximumWaiting: 1)
        let gate = Gate()
        async let first = queue.draw { gate.held(1) }
        async let second = queue.draw { gate.held(2) }
        while queue.pictures < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let refused = await #expect(throws: APIError.self) { try await queue.draw { 3 } }
        #expect(refused?.status == .serviceUnavailable)
        #expect(refused?.headers[.retryAfter] == "1")
        gate.open()
        #expect(try await [first, second] == [1, 2])
        #expect(try await queue.draw { 4 } == 4)
    }
}

/// Holds drawing threads until opened.
final class Gate: Sendable {
    private let opened = Mutex(false)

    func open() { opened.withLock { $0 = true } }

    /// `value`, once the gate is open.
    func held<T>(_ value: T) -> T {
        while !opened.withLock({ $0 }) { usleep(1_000) }
        return value
    }
}
