import JWTKit

extension TokenAuthority {
    /// The audience of a Fleet Engine token.
    package static let fleetEngineAudience = "https://fleetengine.googleapis.com/"

    /// Whether a token is meant as a Fleet Engine token (DESIGN §4): its audience is Fleet
    /// Engine's, or a listed service account issued it. Such a token is verified only against
    /// its account's keys, never the server's own.
    func isFleetEngineShaped(_ claims: UnverifiedClaims) -> Bool {
        if claims.audience.contains(Self.fleetEngineAudience) { return true }
        if let issuer = claims.issuer, serviceAccounts.account(issuer) != nil { return true }
        return false
    }

    /// The caller of a Fleet Engine–shaped token: signed (RS256, by key ID) by a listed
    /// service account, whose role and provider it takes, with `iss` and `sub` the account,
    /// Fleet Engine's audience, the same time rules as the server's own tokens, and an
    /// `authorization` claim naming the consumer's trip or the driver's vehicle.
    func verifyFleetEngine(
        _ token: String, header: TokenHeader, issuer: String, now: Double
    ) async throws(Rejection)
        -> (Principal, Double, Double)
    {
        guard let account = serviceAccounts.account(issuer) else {
            let listing =
                serviceAccounts.isEmpty
                ? "this server was started without --service-accounts (TRIPSHARE_SERVICE_ACCOUNTS)"
                : "list it with its role, provider and keys in the --service-accounts file"
            throw Rejection(
                description: "the token is Fleet Engine's (audience \(Self.fleetEngineAudience)) but its issuer "
                    + "'\(issuer.prefix(120))' is not a service account this server knows: \(listing)")
        }
        guard let keyID = header.keyID else {
            throw Rejection(description: "the token of service account '\(account.email)' names no key ID ('kid') in its header")
        }
        guard let algorithm = account.algorithms[keyID] else {
            throw Rejection(
                description: "the token's key ID '\(keyID.prefix(80))' is not among the keys of service account '\(account.email)' "
                    + "(\(account.algorithms.keys.sorted().joined(separator: ", ")))")
        }
        if header.algorithm != algorithm {
            throw Rejection(description: "the token's header says alg '\(header.algorithm.prefix(16))' but its key is for \(algorithm)")
        }
        let claims: TokenClaims
        do {
            claims = try await withTaskExecutorPreference(VerificationExecutor.shared) {
                try await account.keys.verify(token, as: TokenClaims.self)
            }
        } catch {
            throw Rejection(description: "the token's signature does not verify with key '\(keyID)' of service account '\(account.email)'")
        }
        guard let audience = claims.aud?.value, audience.contains(Self.fleetEngineAudience) else {
            throw Rejection(
                description: "the token of service account '\(account.email)' must have the audience '\(Self.fleetEngineAudience)'")
        }
        guard claims.sub?.value == account.email else {
            throw Rejection(description: "the token's 'sub' must be its service account, '\(account.email)', as its 'iss' is")
        }
        let (expires, notBefore) = try checkTimes(claims, now: now)
        let subject = account.email
        switch account.role {
        case .consumer:
            guard let trip = claims.authorization?.tripid, !trip.isEmpty, trip != "*" else {
                throw Rejection(description: "a token of consumer service account '\(account.email)' must name its trip in authorization.tripid")
            }
            return (Principal(role: .consumer, provider: account.provider, tripId: trip, subject: subject), expires, notBefore)
        case .driver:
            guard let vehicle = claims.authorization?.vehicleid, !vehicle.isEmpty, vehicle != "*" else {
                throw Rejection(
                    description: "a token of driver service account '\(account.email)' must name its vehicle in authorization.vehicleid")
            }
            return (Principal(role: .driver, provider: account.provider, vehicleId: vehicle, subject: subject), expires, notBefore)
        case .server:
            return (Principal(role: .server, provider: account.provider, subject: subject), expires, notBefore)
        }
    }
}
