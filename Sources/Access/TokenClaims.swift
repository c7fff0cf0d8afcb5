import JWTKit

/// The claims of a tripshare token (DESIGN §4), as Fleet Engine's: an `authorization`
/// object naming the provider, and the trip (consumer) or vehicle (driver) within it.
struct TokenClaims: JWTPayload {
    struct Authorization: Codable, Sendable {
        var provider: String?
        var tripid: String?
        var vehicleid: String?
    }

    var iss: IssuerClaim?
    var sub: SubjectClaim?
    var aud: AudienceClaim?
    var iat: IssuedAtClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var role: String?
    var authorization: Authorization?

    /// Time claims are checked by ``TokenAuthority`` against the injected clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
