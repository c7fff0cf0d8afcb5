import Foundation
import JWTKit
import Synchronization
import TripModel

let secret = Array("tripshare-test-secret-of-at-least-32-bytes".utf8)
let epoch = Timestamp(secondsSince1970: 1_738_774_951)

/// Tokens made by hand, to test what the authority refuses.
struct ForgedClaims: JWTPayload {
    var aud: AudienceClaim?
    var iat: IssuedAtClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var role: String?
    var authorization: [String: String]?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

func forge(
    secret key: [UInt8] = secret, audience: String = "tripshare", issuedAt: Double = 0, lifetime: Double = 600,
    notBefore: Double? = nil, role: String? = "server", authorization: [String: String]? = ["provider": "p"],
    header: JWTHeader = JWTHeader()
) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    let issued = epoch.secondsSince1970 + issuedAt
    return try await keys.sign(
        ForgedClaims(
            aud: AudienceClaim(value: [audience]), iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued)),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: issued + lifetime)),
            nbf: notBefore.map { NotBeforeClaim(value: Date(timeIntervalSince1970: epoch.secondsSince1970 + $0)) },
            role: role, authorization: authorization), header: header)
}

