import Foundation
import Synchronization
import Hummingbird
import JWTKit
import Testing
import TripModel
import TripServer
import TripStoreTesting

/// Tokens made by hand, to test what the server refuses.
struct ForgedClaims: JWTPayload {
    var aud: AudienceClaim?
    var iat: IssuedAtClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var role: String?
    var authorization: [String: String]?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

func forge(secret key: [UInt8] = secret, audience: String = "tripshare", issuedAt: Double = 0, lifetime: Double = 600,
           notBefore: Double? = nil, role: String? = "server", authorization: [String: String]? = ["tripid": "*", "vehicleid": "*"]) async throws -> String {
    let keys = JWTKeyCollection()
    await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    let issued = epoch.secondsSince1970 + issuedAt
    return try await keys.sign(ForgedClaims(
        aud: AudienceClaim(value: [audience]), iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued)),
        exp: ExpirationClaim(value: Date(timeIntervalSince1970: issued + lifetime)),
        nbf: notBefore.map { NotBeforeClaim(value: Date(timeIntervalSince1970: epoch.secondsSince1970 + $0)) },
        role: role, authorization: authorization))
}

func base64URL(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

@Suite struct AuthTests {
    /// A valid server token is accepted.
    @Test(arguments: TestStoreKind.available) func validToken(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles", token: try await forge())
        }
    }

    /// Every broken token is a 401 in the Google error shape, saying what is wrong.
    @Test(arguments: TestStoreKind.available) func rejectedTokens(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        let header = base64URL(#"{"alg":"none","typ":"JWT"}"#)
        let payload = base64URL(#"{"aud":"tripshare","iat":\#(Int(epoch.secondsSince1970)),"exp":\#(Int(epoch.secondsSince1970) + 60),"role":"server","authorization":{"tripid":"*"}}"#)
        let cases: [(String, String?, String)] = [
            ("missing header", nil, "missing 'Authorization"),
            ("not a JWT", "hello", "signature or format"),
            ("alg none", "\(header).\(payload).", "signature or format"),
            ("wrong signature", try await forge(secret: Array("another-secret-that-is-long-enough-to-use".utf8)), "signature or format"),
            ("expired", try await forge(issuedAt: -3_000, lifetime: 1_800), "expired"),
            ("not yet valid", try await forge(issuedAt: 1_200), "not valid yet"),
            ("nbf in the future", try await forge(notBefore: 1_200), "not valid yet"),
            ("wrong audience", try await forge(audience: "fleetengine"), "audience"),
            ("lives too long", try await forge(lifetime: 7_200), "at most 3600"),
            ("no role", try await forge(role: nil), "role"),
            ("consumer without trip", try await forge(role: "consumer", authorization: [:]), "authorization.tripid"),
            ("driver with wildcard", try await forge(role: "driver", authorization: ["vehicleid": "*"]), "authorization.vehicleid"),
        ]
        try await harness.test { client in
            for (name, token, fragment) in cases {
                var headers: HTTPFields = [:]
                if let token { headers[.authorization] = "Bearer \(token)" }
                let reply = try await client.send(.get, "/v1/providers/p/vehicles", headers: headers)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.errorStatus == "UNAUTHENTICATED", "\(name)")
                #expect(reply.errorMessage.contains(fragment), "\(name): \(reply.errorMessage)")
            }
            let basic = try await client.send(.get, "/v1/providers/p/vehicles", headers: [.authorization: "Basic abc"])
            #expect(basic.status == .unauthorized)
        }
    }

    /// Ten minutes of clock skew are tolerated on both sides.
    @Test(arguments: TestStoreKind.available) func clockSkew(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: 500))
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: -1_000, lifetime: 600))
        }
    }

    /// A token minted by `tripshare token` (TokenAuthority.mint) carries Fleet Engine's
    /// authorization claim and round-trips.
    @Test func mintedTokens() async throws {
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        let token = try await authority.mint(Principal(role: .consumer, tripId: "t1", subject: "rider"))
        #expect(try await authority.verify(token) == Principal(role: .consumer, tripId: "t1", subject: "rider"))
        await #expect(throws: TokenAuthority.Rejection.self) { try await authority.mint(Principal(role: .server), lifetime: 7_200) }
        await #expect(throws: TokenAuthority.Rejection.self) { try await TokenAuthority(hmacSecret: Array("short".utf8)) }
    }

    /// A verified token stops working when it expires, even from the cache.
    @Test func cachedTokenExpires() async throws {
        let clock = MutableClock(epoch)
        let authority = try await TokenAuthority(hmacSecret: secret, clock: clock.wallClock)
        let token = try await authority.mint(Principal(role: .server), lifetime: 60)
        _ = try await authority.verify(token)
        clock.advance(by: 60 + 601)
        await #expect(throws: TokenAuthority.Rejection(description: "the token has expired")) { _ = try await authority.verify(token) }
    }
}

/// A clock tests move by hand.
final class MutableClock: Sendable {
    private let value: Mutex<Timestamp>
    init(_ start: Timestamp) { value = Mutex(start) }
    func advance(by seconds: Double) { value.withLock { $0 = $0.adding(seconds: seconds) } }
    var wallClock: WallClock { WallClock { self.value.withLock { $0 } } }
}
