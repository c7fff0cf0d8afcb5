import Dispatch
import Synchronization

/// Per-caller request budgets, so that one broken app cannot starve a fleet (issue 17):
/// a token bucket per caller that refills at `requestsPerSecond` up to `burst`. A caller is
/// the identity its token's verified claims name (``Principal``), not the token's text: the
/// same claims in another spelling, or in a token minted anew, spend the same budget
/// (issue 29, item 4: one token was accepted in eight spellings, each with its own budget).
///
/// Each process counts on its own: behind a load balancer with several servers, a token may
/// make up to that many times the rate in all. Memory is bounded by ``capacity`` buckets;
/// a full bucket is the same as none, so those go first when room is needed.
package final class TokenRateLimiter: Sendable {
    /// How fast a token may call.
    package struct Rate: Sendable, Equatable {
        /// The sustained rate.
        package var requestsPerSecond: Double
        /// Requests a token may make at once after a quiet spell.
        package var burst: Double

        /// A rate of `requestsPerSecond` with bursts of `burst` (at least one second's worth).
        package init(requestsPerSecond: Double, burst: Double) {
            self.requestsPerSecond = requestsPerSecond
            self.burst = max(burst, requestsPerSecond, 1)
        }
    }

    /// Which roles are limited, and how.
    package struct Policy: Sendable, Equatable {
        /// The rate of each driver and consumer token; nil for none.
        package var driverAndConsumer: Rate?
        /// The rate of each server token; nil for none.
        package var server: Rate?

        /// Creates a policy.
        package init(driverAndConsumer: Rate?, server: Rate?) {
            self.driverAndConsumer = driverAndConsumer
            self.server = server
        }

        /// 10 requests a second with bursts of 100 for each driver and consumer token, and no
        /// limit for server tokens (a provider's backend speaks for its whole fleet).
        ///
        /// The fastest honest apps are a driver's screen (a location update, navigation.png,
        /// layout.json and card.png, each about once a second: 4 a second) and a rider's app
        /// polling its trip once a second; 10 a second is well above both. A burst of 100
        /// covers an app that starts by fetching every maneuver icon it may show (66) and its
        /// trip.
        package static let standard = Policy(
            driverAndConsumer: Rate(requestsPerSecond: 10, burst: 100), server: nil)

        /// No limits (fixture replays and tests that are not about limits).
        package static let unlimited = Policy(driverAndConsumer: nil, server: nil)

        /// The rate of `role`'s tokens.
        func rate(of role: Role) -> Rate? {
            role == .server ? server : driverAndConsumer
        }
    }

    /// Whose budget a bucket is.
    private enum BucketKey: Hashable, Sendable {
        /// The caller a verified token names.
        case caller(Principal)
        /// Anything else counted (a client's address).
        case other(String)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
        /// When it will have refilled, if nothing more is taken.
        var full: Double
    }

    /// The policy in force.
    package let policy: Policy
    /// Most buckets kept; about 40 bytes each.
    package let capacity: Int
    private let now: @Sendable () -> Double
    private let buckets = Mutex([BucketKey: Bucket]())

    /// A limiter that reads `now` (seconds on a monotonic clock; the system's uptime by
    /// default) and keeps at most `capacity` buckets.
    package init(policy: Policy = .standard, capacity: Int = 100_000, now: @escaping @Sendable () -> Double = TokenRateLimiter.uptime) {
        self.policy = policy
        self.capacity = max(capacity, 1)
        self.now = now
    }

    /// Seconds since boot on a clock that never goes back.
    package static let uptime: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Takes one request from the budget of the caller `principal` names: nil when it may go
    /// ahead, else the seconds until it may call again.
    package func admit(_ principal: Principal) -> Double? {
        admit(key: .caller(principal), role: principal.role)
    }

    /// Takes one request from the budget of `key` (a client's address, say), limited as a
    /// `role` token: nil when it may go ahead, else the seconds until it may call again.
    package func admit(key: String, role: Role) -> Double? {
        admit(key: .other(key), role: role)
    }

    private func admit(key: BucketKey, role: Role) -> Double? {
        guard let rate = policy.rate(of: role) else { return nil }
        let time = now()
        return buckets.withLock { buckets -> Double? in
            var bucket = buckets[key] ?? Bucket(tokens: rate.burst, updated: time, full: time)
            bucket.tokens = min(rate.burst, bucket.tokens + max(0, time - bucket.updated) * rate.requestsPerSecond)
            bucket.updated = time
            let wait: Double?
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                wait = nil
            } else {
                wait = (1 - bucket.tokens) / rate.requestsPerSecond
            }
            bucket.full = time + (rate.burst - bucket.tokens) / rate.requestsPerSecond
            if buckets[key] == nil, buckets.count >= capacity { Self.makeRoom(in: &buckets, now: time, capacity: capacity) }
            buckets[key] = bucket
            return wait
        }
    }

    /// Buckets held now (for tests and metrics).
    package var count: Int { buckets.withLock { $0.count } }

    /// Drops the buckets that have refilled (they are the same as no bucket); when every
    /// bucket is still in use, the tenth used longest ago, so the next inserts find room.
    private static func makeRoom(in buckets: inout [BucketKey: Bucket], now: Double, capacity: Int) {
        buckets = buckets.filter { $0.value.full > now }
        guard buckets.count >= capacity else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(max(1, capacity / 10))
        for (key, _) in oldest { buckets[key] = nil }
    }
}
