/// Turns a bearer token into the caller it stands for: verified (else UNAUTHENTICATED) and
/// within its rate limit (else RESOURCE_EXHAUSTED). Every way in goes through it, on both
/// wires: REST's `Authorization` header, gRPC's `authorization` metadata, and the tokens in
/// page paths (`/share/{token}`). A caller's requests count against one budget whichever wire
/// they come by, and whichever spelling of its token (the budget is its verified claims').
package struct Authenticator: Sendable {
    /// Who verifies tokens.
    package let authority: TokenAuthority
    /// Each token's request budget.
    package let limiter: TokenRateLimiter

    /// Creates an authenticator.
    package init(authority: TokenAuthority, limiter: TokenRateLimiter) {
        self.authority = authority
        self.limiter = limiter
    }

    /// The caller `token` stands for.
    package func principal(token: String) async throws(AccessDenied) -> Principal {
        let principal: Principal
        do {
            principal = try await authority.verify(token)
        } catch {
            throw .unauthenticated(error.description)
        }
        if let wait = limiter.admit(principal) { throw .rateLimited(retryAfter: wait) }
        return principal
    }
}
