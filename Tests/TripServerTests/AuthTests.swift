import Access
import AccessTesting
import Foundation
import Hummingbird
import JWTKit
import StoreVariants
import Synchronization
import Testing
import TripModel
import TripServer
import TripServerTesting

func base64URL(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

@Suite struct AuthTests {
    /// A valid server token is accepted.
    @Test(arguments: TestStoreKind.available) func validToken(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", token: try await forge())
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
                let reply = try await client.send(.get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", headers: headers)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.errorStatus == "UNAUTHENTICATED", "\(name)")
                #expect(reply.errorMessage.contains(fragment), "\(name): \(reply.errorMessage)")
            }
            let basic = try await client.send(.get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", headers: [.authorization: "Basic abc"])
            #expect(basic.status == .unauthorized)
        }
    }

    /// A minute of clock skew is tolerated on both sides by default, no more.
    @Test(arguments: TestStoreKind.available) func clockSkew(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", token: try await forge(issuedAt: 50))
            try await client.expect(
                .ok, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", token: try await forge(issuedAt: -650, lifetime: 600))
            try await client.expect(.unauthorized, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", token: try await forge(issuedAt: 90))
            try await client.expect(
                .unauthorized, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", token: try await forge(issuedAt: -700, lifetime: 600))
        }
    }
}
