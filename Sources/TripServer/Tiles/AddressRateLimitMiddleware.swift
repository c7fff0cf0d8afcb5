import Access
import Hummingbird

/// Budgets for the public map data routes (tiles, TileJSON, styles, road names), which take no
/// token: one bucket per client IP address, so one client cannot keep the renderer busy for
/// everyone. Over budget: 429 RESOURCE_EXHAUSTED with `Retry-After`. Requests that did not
/// come over a socket share one bucket. The buckets are a ``TokenRateLimiter``'s, keyed by
/// address instead of token.
struct AddressRateLimitMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    /// The limiter; nil for no limit.
    let limiter: TokenRateLimiter?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let limiter, let wait = limiter.admit(key: context.remoteAddress ?? "local", role: .consumer) {
            let seconds = max(1, Int(wait.rounded(.up)))
            var error = APIError(
                .resourceExhausted, "this address is fetching map data faster than this server allows; retry after \(seconds) s")
            error.headers[.retryAfter] = String(seconds)
            throw error
        }
        return try await next(request, context)
    }
}
