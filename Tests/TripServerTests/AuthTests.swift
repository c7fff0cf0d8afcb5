import Foundation
import Hummingbird
import JWTKit
import Synchronization
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
        let issued = Int(epoch.secondsSince1970)
        let payload = base64URL(
            #"{"aud":"tripshare","iat":\#(issued),"exp":\#(issued + 60),"role":"server","authorization":{"provider":"p"}}"#)
        let cases: [(String, String?, String)] = [
            ("missing header", nil, "missing 'Authorization"),
            ("not a JWT", "hello", "signature or format"),
            ("alg none", "\(header).\(payload).", "alg 'none' but its key is for HS256"),
            ("wrong signature", try await forge(secret: Array("another-secret-that-is-long-enough-to-use".utf8)), "signature or format"),
            ("expired", try await forge(issuedAt: -3_000, lifetime: 1_800), "expired"),
            ("not yet valid", try await forge(issuedAt: 1_200), "not valid yet"),
            ("nbf in the future", try await forge(notBefore: 1_200), "not valid yet"),
            ("wrong audience", try await forge(audience: "fleetengine"), "audience"),
            ("lives too long", try await forge(lifetime: 7_200), "at most 3600"),
            ("no role", try await forge(role: nil), "role"),
            ("consumer without trip", try await forge(role: "consumer", authorization: ["provider": "p"]), "authorization.tripid"),
            (
                "driver with wildcard", try await forge(role: "driver", authorization: ["provider": "p", "vehicleid": "*"]),
                "authorization.vehicleid"
            ),
            ("no provider", try await forge(authorization: ["tripid": "*", "vehicleid": "*"]), "tripshare token --provider P"),
            (
                "consumer of every provider", try await forge(role: "consumer", authorization: ["provider": "*", "tripid": "t1"]),
                "must name one provider"
            ),
            (
                "driver of no provider", try await forge(role: "driver", authorization: ["provider": "", "vehicleid": "v1"]),
                "names no provider"
            ),
            ("provider that is no ID", try await forge(authorization: ["provider": "a/b"]), "authorization.provider: must not contain '/'"),
            ("alg claims HS512", try await forge(header: ["alg": "HS512"]), "alg 'HS512' but its key is for HS256"),
            ("alg claims RS256", try await forge(header: ["alg": "RS256"]), "alg 'RS256' but its key is for HS256"),
            ("unknown crit", try await forge(header: ["crit": ["exp"], "exp": 1]), "critical (crit: exp)"),
            ("empty crit", try await forge(header: ["crit": []]), "RFC 7515"),
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

    /// A token naming a JWKS key must claim that key's algorithm: an HS256 token that names
    /// an RSA key is refused before any key is tried (the algorithm-confusion attack).
    @Test func headerAlgorithmMustBeTheNamedKeys() async throws {
        let jwks = #"{"keys": [{"kty": "RSA", "kid": "rsa1", "alg": "RS256", "e": "AQAB", "n": "\#(Self.modulus)"}]}"#
        let authority = try await TokenAuthority(hmacSecret: secret, jwksJSON: jwks, clock: .fixed(epoch))
        await #expect(throws: TokenAuthority.Rejection(description: "the token's header says alg 'HS256' but its key is for RS256")) {
            _ = try await authority.verify(try await forge(header: ["kid": "rsa1"]))
        }
        _ = try await authority.verify(try await forge())
    }

    /// A 2048-bit RSA modulus (base64url), for a JWKS with a public key.
    static let modulus = """
        zKq9m5uG22yS6hcuMApdK2J2IpAG5sjPUtJmmXUIzy_LP5htARr6l9HR3HApnlfLxNvMa2k_j93k8YiBzUZJ_bIkJWaLaJTO0ZmsyOCTEC0yjxuVFGgZi0f\
        B8NUu2kmgJz-OWc4aTnYxz_51jZe9NND2rp7P0B6AqiBrt7VRW1xBQhp_iAYdmct1kXtwWSRmKgenGZqXOuKE7cpdYT5Wfi6Xh5XSXuCuNjjXF-Iqqn3wen\
        6m6y1X6Cj7EDuU35hUJyQrI4yonk21HrzD-db8R1YmImdspkIED6LhiB-L9FbWz6W_QroJalOvUneHWEyMOFuYxE09GJJ1uf3c_8cZsw
        """

    /// A minute of clock skew is tolerated on both sides by default, no more.
    @Test(arguments: TestStoreKind.available) func clockSkew(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: 50))
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: -650, lifetime: 600))
            try await client.expect(.unauthorized, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: 90))
            try await client.expect(.unauthorized, .get, "/v1/providers/p/vehicles", token: try await forge(issuedAt: -700, lifetime: 600))
        }
    }

    /// The skew is configurable, within bounds.
    @Test func configuredClockSkew() async throws {
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch), clockSkew: 600)
        _ = try await authority.verify(try await forge(issuedAt: 500))
        _ = try await authority.verify(try await forge(issuedAt: -1_100, lifetime: 600))
        let strict = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch), clockSkew: 0)
        await #expect(throws: TokenAuthority.Rejection(description: "the token is not valid yet")) {
            _ = try await strict.verify(try await forge(issuedAt: 1))
        }
        await #expect(throws: TokenAuthority.Rejection.self) { try await TokenAuthority(hmacSecret: secret, clockSkew: 7_200) }
        await #expect(throws: TokenAuthority.Rejection.self) { try await TokenAuthority(hmacSecret: secret, clockSkew: -1) }
    }

    /// A token minted by `tripshare token` (TokenAuthority.mint) carries Fleet Engine's
    /// authorization claim with its provider and round-trips; a provider is required.
    @Test func mintedTokens() async throws {
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        for principal in [
            Principal(role: .consumer, provider: "pa", tripId: "t1", subject: "rider"),
            Principal(role: .driver, provider: "pb", vehicleId: "v1"),
            Principal(role: .server, provider: "pa"), Principal(role: .server, provider: Principal.allProviders),
        ] {
            #expect(try await authority.verify(try await authority.mint(principal)) == principal)
        }
        await #expect(throws: TokenAuthority.Rejection.self) {
            try await authority.mint(Principal(role: .server, provider: "p"), lifetime: 7_200)
        }
        await #expect(throws: TokenAuthority.Rejection.self) {
            try await authority.mint(Principal(role: .consumer, provider: Principal.allProviders, tripId: "t1"))
        }
        await #expect(throws: TokenAuthority.Rejection.self) { try await authority.mint(Principal(role: .driver, provider: "", vehicleId: "v")) }
        await #expect(throws: TokenAuthority.Rejection.self) { try await TokenAuthority(hmacSecret: Array("short".utf8)) }
    }

    /// A verified token stops working when it expires, even from the cache.
    @Test func cachedTokenExpires() async throws {
        let clock = MutableClock(epoch)
        let authority = try await TokenAuthority(hmacSecret: secret, clock: clock.wallClock)
        let token = try await authority.mint(Principal(role: .server, provider: "p"), lifetime: 60)
        _ = try await authority.verify(token)
        clock.advance(by: 60 + 61)
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
