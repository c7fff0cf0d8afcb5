import Access
import Hummingbird

/// Authenticates every request it guards and binds it to the token's provider.
///
/// A missing, malformed, expired, not-yet-valid, wrongly signed, wrong-audience,
/// over-long-lived or provider-less bearer token is a 401; a token over its rate a 429.
/// Then, on every route with a `{provider}` path parameter, a token of another provider is
/// a 403 (``AccessPolicy/checkProvider(_:provider:)``), before the route's handler runs: a
/// route registered on the guarded group gets the check by construction. Last, a query
/// parameter the route does not take is INVALID_ARGUMENT (``QueryParameterMiddleware``, run
/// here after authentication so that a caller without access learns nothing of a route's
/// parameters, and in this layer so that a request pays for one layer rather than two).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let authenticator: Authenticator
    let queryParameters: QueryParameterMiddleware

    /// The path parameter that names a provider: every guarded route that has it is checked
    /// against the token's provider.
    static let providerParameter = "provider"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthenticated("missing 'Authorization: Bearer <token>' header")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthenticated("the Authorization header must be 'Bearer <token>'")
        }
        let principal = try await authenticator.principal(token: String(parts[1].trimmingSpaces))
        if context.parameters.get(Self.providerParameter) != nil {
            try AccessPolicy.checkProvider(principal, provider: try context.pathParameter(Self.providerParameter))
        }
        var context = context
        context.principal = principal
        try queryParameters.check(request, context: context)
        return try await next(request, context)
    }
}
