import Hummingbird

/// Authenticates every request it guards: a missing, malformed, expired, not-yet-valid,
/// wrongly signed, wrong-audience or over-long-lived bearer token is a 401.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let authority: TokenAuthority

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthenticated("missing 'Authorization: Bearer <token>' header")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthenticated("the Authorization header must be 'Bearer <token>'")
        }
        var context = context
        do {
            context.principal = try await authority.verify(String(parts[1].trimmingSpaces))
        } catch {
            throw APIError.unauthenticated(error.description)
        }
        return try await next(request, context)
    }
}
