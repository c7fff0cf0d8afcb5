import AccessTesting
import Foundation
import JWTKit
import Synchronization
import Testing
import TripModel
import TripModelTesting

@testable import Access

/// The server's own tokens, verified and minted by ``TokenAuthority`` (DESIGN §4).
@Suite struct TokenAuthorityTests {
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

    /// A signed token whose claim is of the wrong kind (`exp` as a string, as a hand-written
    /// minter may send it) is refused naming the claim, not as a bad signature.
    @Test func misTypedClaimIsNamed() async throws {
        struct StringTimes: JWTPayload {
            var aud = "tripshare"
            var iat: String
            var exp: String
            var role = "server"
            var authorization = ["provider": "p"]
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let issued = Int(epoch.secondsSince1970)
        let token = try await keys.sign(StringTimes(iat: "\(issued)", exp: "\(issued + 600)"))
        let authority = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        await #expect(throws: TokenAuthority.Rejection(description: "the token's 'exp' claim must be a number of seconds since 1970, not a string")) {
            _ = try await authority.verify(token)
        }
        let otherKey = JWTKeyCollection()
        await otherKey.add(hmac: HMACKey(from: Array("another-secret-of-at-least-32-bytes-long".utf8)), digestAlgorithm: .sha256)
        let unsigned = try await otherKey.sign(StringTimes(iat: "\(issued)", exp: "\(issued + 600)"))
        do {
            _ = try await authority.verify(unsigned)
            Issue.record("a token signed with another key was accepted")
        } catch {
            #expect(error.description.hasPrefix("the token's signature or format is not valid"), "a bad signature is still a bad signature")
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
        let clock = ManualClock(epoch)
        let authority = try await TokenAuthority(hmacSecret: secret, clock: clock.wallClock)
        let token = try await authority.mint(Principal(role: .server, provider: "p"), lifetime: 60)
        _ = try await authority.verify(token)
        clock.advance(by: 60 + 61)
        await #expect(throws: TokenAuthority.Rejection(description: "the token has expired")) { _ = try await authority.verify(token) }
    }
}
