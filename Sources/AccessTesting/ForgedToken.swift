import Foundation
import JWTKit
import TripModel
import TripModelTesting

/// Tokens made by hand, to test what an authority refuses: every claim optional, so a test
/// can leave any out or spell it wrongly.
package struct ForgedClaims: JWTPayload {
    var aud: AudienceClaim?
    var iat: IssuedAtClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var role: String?
    var authorization: [String: String]?

    /// Accepts anything: the point is to see what the server accepts.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The HMAC secret the test suites' authorities are made with.
package let testTokenSecret = Array("tripshare-test-secret-of-at-least-32-bytes".utf8)

/// An HS256 token signed with `key`: issued `issuedAt` seconds after the tests' epoch
/// (``ManualClock/testEpoch``), valid `lifetime` seconds, not before `notBefore` seconds after
/// the epoch when given, with the given role and authorization claims and `header`.
package func forge(
    secret key: [UInt8] = testTokenSecret, audience: String = "tripshare", issuedAt: Double = 0, lifetime: Double = 600,
    notBefore: Double? = nil, role: String? = "server", authorization: [String: String]? = ["provider": "p"],
    header: JWTHeader = JWTHeader()
) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    let epoch = ManualClock.testEpoch.secondsSince1970
    let issued = epoch + issuedAt
    return try await keys.sign(
        ForgedClaims(
            aud: AudienceClaim(value: [audience]), iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued)),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: issued + lifetime)),
            nbf: notBefore.map { NotBeforeClaim(value: Date(timeIntervalSince1970: epoch + $0)) },
            role: role, authorization: authorization), header: header)
}
