import Caching
import Foundation
import JWTKit
import TripModel

/// Verifies bearer tokens and mints new ones (DESIGN §4). Accepts HS256 with the shared
/// secret and RS256/ES256 with keys from a JWKS; the header's `alg` must be the one of the
/// key that verifies it (so `alg: none` never verifies) and a `crit` header is refused. Time
/// claims are checked against an injected clock with a small, configurable skew, a token may
/// live at most an hour, and every token is bound to one provider (`authorization.provider`).
/// Fleet Engine–shaped tokens of listed service accounts are accepted too
/// (TokenAuthority+FleetEngine.swift), verified only with their account's keys.
package final class TokenAuthority: Sendable {
    /// Why a token was refused; each becomes a 401 with this message.
    package struct Rejection: Error, Equatable, CustomStringConvertible {
        /// What was wrong with the token.
        package var description: String

        /// Creates a rejection saying what was wrong.
        package init(description: String) { self.description = description }
    }

    /// The audience every token must name.
    package static let audience = "tripshare"
    /// Longest allowed lifetime (`exp - iat`).
    package static let maximumLifetime: Double = 3_600
    /// Clock skew tolerated on `exp`, `nbf` and `iat` unless configured: tokens are minted by
    /// the provider's servers and checked by ours, both kept on time by NTP, so a minute
    /// covers a badly synchronised one while an expired token works at most a minute longer.
    package static let defaultClockSkew: Double = 60
    /// The largest skew that may be configured: more would stretch an hour's token by half.
    package static let maximumClockSkew: Double = 1_800
    /// Shortest accepted HMAC secret: HS256 keys shorter than the hash are weak.
    package static let minimumSecretLength = 32

    /// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
    package let clockSkew: Double
    private let keys: JWTKeyCollection
    private let algorithms: KeyAlgorithms
    private let canSign: Bool
    private let clock: WallClock
    /// The service accounts whose Fleet Engine–shaped tokens are accepted.
    let serviceAccounts: ServiceAccounts
    /// Verified tokens, by their text, in the process's cache pool: a rider app polls with the
    /// same token, so a hit is the rule, and a miss costs a signature check.
    private let verifiedTokens: BoundedCache<String, VerifiedToken>

    /// Creates an authority from an HMAC secret and/or a JWKS document, tolerating
    /// `clockSkew` seconds (at most ``maximumClockSkew``) between the minting and our clock,
    /// that also accepts the Fleet Engine–shaped tokens of `serviceAccounts`, keeping the
    /// tokens it verified in `tokenCache` (the server's ``CacheBudget/caches``).
    package init(
        hmacSecret: [UInt8]?, jwksJSON: String? = nil, serviceAccounts: ServiceAccounts = .none, clock: WallClock = .system,
        clockSkew: Double = defaultClockSkew, tokenCache: CachePool = CacheBudget.standard.caches
    ) async throws {
        guard clockSkew.isFinite, (0...Self.maximumClockSkew).contains(clockSkew) else {
            throw Rejection(description: "the token clock skew must be between 0 and \(Int(Self.maximumClockSkew)) seconds")
        }
        let keys = JWTKeyCollection()
        if let hmacSecret {
            guard hmacSecret.count >= Self.minimumSecretLength else {
                throw Rejection(description: "the JWT secret must be at least \(Self.minimumSecretLength) bytes, got \(hmacSecret.count)")
            }
            await keys.add(hmac: HMACKey(from: hmacSecret), digestAlgorithm: .sha256)
        }
        if let jwksJSON { try await keys.add(jwksJSON: jwksJSON) }
        guard hmacSecret != nil || jwksJSON != nil else {
            throw Rejection(description: "no key: give an HMAC secret or a JWKS")
        }
        self.keys = keys
        self.algorithms = try KeyAlgorithms(hmac: hmacSecret != nil, jwksJSON: jwksJSON)
        self.canSign = hmacSecret != nil
        self.serviceAccounts = serviceAccounts
        self.clock = clock
        self.clockSkew = clockSkew
        verifiedTokens = BoundedCache(pool: tokenCache, name: "verified_tokens")
    }

    /// The caller a bearer token stands for, or a ``Rejection`` saying why not.
    package func verify(_ token: String) async throws(Rejection) -> Principal {
        let now = clock.now.secondsSince1970
        if let hit = verifiedTokens.value(forKey: token) {
            try checkWindow(now: now, expires: hit.expires, notBefore: hit.notBefore)
            return hit.principal
        }
        let header = try TokenHeader(token: token)
        let verified: (Principal, Double, Double)
        let unverified = UnverifiedClaims(token: token)
        if isFleetEngineShaped(unverified) {
            verified = try await verifyFleetEngine(token, header: header, issuer: unverified.issuer ?? "", now: now)
        } else {
            verified = try await verifyOwn(token, header: header, now: now)
        }
        let (principal, expires, notBefore) = verified
        let entry = VerifiedToken(principal: principal, expires: expires, notBefore: notBefore)
        verifiedTokens.setValue(entry, forKey: token, cost: entry.approximateBytes(token: token))
        return principal
    }

    /// How many verified tokens are kept (tests).
    var verifiedTokenCount: Int { verifiedTokens.count }

    /// The caller of one of the server's own tokens (HS256 or a JWKS key).
    private func verifyOwn(_ token: String, header: TokenHeader, now: Double) async throws(Rejection) -> (Principal, Double, Double) {
        if let expected = algorithms.expected(keyID: header.keyID), header.algorithm != expected {
            throw Rejection(description: "the token's header says alg '\(header.algorithm.prefix(16))' but its key is for \(expected)")
        }
        let claims: TokenClaims
        do {
            claims = try await withTaskExecutorPreference(VerificationExecutor.shared) {
                try await keys.verify(token, as: TokenClaims.self)
            }
        } catch {
            // jwt-kit reads the payload only once the signature holds: a payload it cannot read
            // is the minter's mistake, named here (a string `exp`, say).
            if let jwt = error as? JWTError, jwt.errorType == .malformedToken, let wrong = UnverifiedClaims(token: token).misTyped {
                throw Rejection(description: "the token's '\(wrong.claim)' claim must be \(wrong.expected), not \(wrong.found)")
            }
            throw Rejection(
                description: "the token's signature or format is not valid; if `tripshare token` minted it, it "
                    + "likely used another key than this server's (give it the server's --data-dir or TRIPSHARE_JWT_SECRET)")
        }
        return try check(claims, now: now)
    }

    /// Mints a token for `principal`, valid for `lifetime` seconds from now (at most an hour).
    package func mint(_ principal: Principal, lifetime: Double = 3_600, issuer: String = "tripshare") async throws -> String {
        guard canSign else { throw Rejection(description: "tokens can be minted only with the HMAC secret (TRIPSHARE_JWT_SECRET)") }
        guard lifetime > 0, lifetime <= Self.maximumLifetime else {
            throw Rejection(description: "a token may live at most \(Int(Self.maximumLifetime)) seconds")
        }
        try Self.checkProvider(principal.provider, role: principal.role)
        let now = clock.now.secondsSince1970.rounded(.down)
        let authorization: TokenClaims.Authorization
        switch principal.role {
        case .consumer: authorization = .init(provider: principal.provider, tripid: principal.tripId)
        case .driver: authorization = .init(provider: principal.provider, vehicleid: principal.vehicleId)
        case .server: authorization = .init(provider: principal.provider)
        }
        let claims = TokenClaims(
            iss: IssuerClaim(value: issuer), sub: principal.subject.map { SubjectClaim(value: $0) },
            aud: AudienceClaim(value: [Self.audience]), iat: IssuedAtClaim(value: Date(timeIntervalSince1970: now)),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: now + lifetime)), nbf: nil,
            role: principal.role.rawValue, authorization: authorization)
        return try await keys.sign(claims)
    }

    /// How to get a token that works, for the messages that refuse one.
    static let mintingHint =
        "mint one with `tripshare token --provider P --role ROLE ...` (or put \"provider\" into the "
        + "token's \"authorization\" claim)"

    /// A provider claim must name one provider; only a server token may name every provider.
    private static func checkProvider(_ provider: String?, role: Role) throws(Rejection) {
        guard let provider, !provider.isEmpty else {
            throw Rejection(description: "the token names no provider (authorization.provider); tokens are bound to one provider: \(mintingHint)")
        }
        if provider == Principal.allProviders {
            guard role == .server else {
                throw Rejection(description: "a \(role.rawValue) token must name one provider in authorization.provider, not '*'")
            }
            return
        }
        do {
            try ResourceName.validateID(provider, field: "authorization.provider")
        } catch {
            throw Rejection(description: "the token's \(error.message)")
        }
    }

    private func check(_ claims: TokenClaims, now: Double) throws(Rejection) -> (Principal, Double, Double) {
        guard let audience = claims.aud?.value, audience.contains(Self.audience) else {
            throw Rejection(description: "the token's audience must include '\(Self.audience)'")
        }
        let (expires, notBefore) = try checkTimes(claims, now: now)
        guard let roleName = claims.role, let role = Role(rawValue: roleName) else {
            throw Rejection(description: "the token's 'role' must be consumer, driver or server")
        }
        let subject = claims.sub?.value
        try Self.checkProvider(claims.authorization?.provider, role: role)
        let principal = Principal(role: role, provider: claims.authorization?.provider ?? "", subject: subject)
        switch role {
        case .consumer:
            guard let trip = claims.authorization?.tripid, !trip.isEmpty, trip != "*" else {
                throw Rejection(description: "a consumer token must name its trip in authorization.tripid")
            }
            return (Principal(role: role, provider: principal.provider, tripId: trip, subject: subject), expires, notBefore)
        case .driver:
            guard let vehicle = claims.authorization?.vehicleid, !vehicle.isEmpty, vehicle != "*" else {
                throw Rejection(description: "a driver token must name its vehicle in authorization.vehicleid")
            }
            return (Principal(role: role, provider: principal.provider, vehicleId: vehicle, subject: subject), expires, notBefore)
        case .server:
            return (principal, expires, notBefore)
        }
    }

    /// When the token expires and from when it is good, checked against `now`: it must have
    /// both, live at most an hour, and be valid now within the clock skew.
    func checkTimes(_ claims: TokenClaims, now: Double) throws(Rejection) -> (expires: Double, notBefore: Double) {
        guard let expires = claims.exp?.value.timeIntervalSince1970 else { throw Rejection(description: "the token has no 'exp'") }
        guard let issued = claims.iat?.value.timeIntervalSince1970 else { throw Rejection(description: "the token has no 'iat'") }
        let notBefore = max(issued, claims.nbf?.value.timeIntervalSince1970 ?? issued)
        if expires - issued > Self.maximumLifetime {
            throw Rejection(description: "the token lives \(Int(expires - issued)) s; at most \(Int(Self.maximumLifetime)) s are allowed")
        }
        try checkWindow(now: now, expires: expires, notBefore: notBefore)
        return (expires, notBefore)
    }

    private func checkWindow(now: Double, expires: Double, notBefore: Double) throws(Rejection) {
        if now > expires + clockSkew { throw Rejection(description: "the token has expired") }
        if now + clockSkew < notBefore { throw Rejection(description: "the token is not valid yet") }
    }
}
