import Access
import Hummingbird

/// What a browser page's link (`/share/{token}`, `/drive/{token}`) opens: the provider and
/// the one resource its token names, or the short page that says why it does not open.
enum PageLink {
    /// Pages' own words for a link that does not open.
    struct Refusals {
        /// Title and advice for an expired or invalid token (401).
        var invalid: (title: String, advice: String)
        /// Title and advice for a token of another kind (403).
        var wrongKind: (title: String, advice: String)
    }

    /// The token's provider and the resource's id.
    case opens(provider: String, id: String)
    /// The page to answer instead.
    case refused(Response)

    /// Reads the link's `token`: `resource` gives the id of what the page shows from the
    /// token's principal, nil when the token is of another kind. A token over its rate limit
    /// answers 429 with Retry-After like the API (the error is thrown, not a page).
    static func open(
        _ token: String, authenticator: Authenticator, refusals: Refusals, resource: (Principal) -> String?
    ) async throws -> PageLink {
        let principal: Principal
        do { principal = try await authenticator.principal(token: token) } catch {
            guard error.code == .unauthenticated else { throw APIError(error) }
            return .refused(PageResponse.message(.unauthorized, refusals.invalid.title, "\(refusals.invalid.advice) (\(error.message))"))
        }
        guard let id = resource(principal) else {
            return .refused(PageResponse.message(.forbidden, refusals.wrongKind.title, refusals.wrongKind.advice))
        }
        // The resource is the token's provider's: the token says whose, the page never looks it up.
        return .opens(provider: principal.provider, id: id)
    }
}
