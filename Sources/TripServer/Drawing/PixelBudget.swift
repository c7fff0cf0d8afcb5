import Access
import Dispatch
import Synchronization

/// What each driver and consumer token may have drawn: a budget of pixels a second, so that
/// pictures cost what they cost (a 2048×2048 preview is 4.2 million pixels, a small one a
/// tenth of that) rather than one request each (issue 29, item 4). A bucket per token
/// identity (its verified claims) refills at ``pixelsPerSecond`` up to ``burst``; a picture
/// that does not fit is refused with 429 and the wait until it would. Which tokens are
/// limited is Access's rule (``AccessPolicy/drawsWithinPixelBudget(_:)``): not server tokens.
final class PixelBudget: Sendable {
    /// Pixels a second each limited token may have drawn; nil for no limit.
    let pixelsPerSecond: Double?
    /// Pixels a token may have drawn at once after a quiet spell.
    let burst: Double
    /// Most buckets kept; full ones go first when room is needed.
    let capacity: Int
    private let now: @Sendable () -> Double
    private let buckets = Mutex([Principal: (pixels: Double, at: Double)]())

    /// A budget of `pixelsPerSecond` (nil: none) with bursts of `burst`, on the clock `now`
    /// (seconds, monotonic).
    init(
        pixelsPerSecond: Double?, burst: Double? = nil, capacity: Int = 100_000,
        now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.pixelsPerSecond = pixelsPerSecond
        self.burst = max(burst ?? (pixelsPerSecond ?? 0) * 3, pixelsPerSecond ?? 0)
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// Takes `pixels` from `principal`'s budget, or throws 429 with the wait until it could.
    /// A picture larger than the whole burst may be drawn once the bucket is full.
    func spend(_ pixels: Int, by principal: Principal) throws(APIError) {
        guard let rate = pixelsPerSecond, AccessPolicy.drawsWithinPixelBudget(principal) else { return }
        let cost = min(Double(pixels), burst)
        let time = now()
        let wait = buckets.withLock { buckets -> Double? in
            var bucket = buckets[principal] ?? (burst, time)
            bucket.pixels = min(burst, bucket.pixels + (time - bucket.at) * rate)
            bucket.at = time
            guard bucket.pixels >= cost else {
                buckets[principal] = bucket
                return (cost - bucket.pixels) / rate
            }
            bucket.pixels -= cost
            if buckets[principal] == nil, buckets.count >= capacity { prune(&buckets, at: time, rate: rate) }
            buckets[principal] = bucket
            return nil
        }
        if let wait {
            var error = APIError(AccessDenied.rateLimited(retryAfter: wait))
            error.message =
                "this token has had more pixels drawn than this server allows (\(Int(rate / 1_000_000)) million a second); "
                + "retry after \(error.headers[.retryAfter] ?? "1") s"
            throw error
        }
    }

    /// Drops the buckets that have refilled (the same as none), or half of all if none has.
    private func prune(_ buckets: inout [Principal: (pixels: Double, at: Double)], at time: Double, rate: Double) {
        let before = buckets.count
        buckets = buckets.filter { $0.value.pixels + (time - $0.value.at) * rate < burst }
        if buckets.count == before { buckets = Dictionary(uniqueKeysWithValues: buckets.prefix(before / 2).map { ($0.key, $0.value) }) }
    }
}
