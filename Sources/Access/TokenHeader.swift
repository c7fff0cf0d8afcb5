import Foundation
import JSON
import TripModel

/// The JOSE header of a token, checked before its signature (RFC 7515): the `alg` it names
/// must be the algorithm of the key that verifies it, and a `crit` header is refused, since
/// this server understands no extension that could be marked critical.
struct TokenHeader {
    /// The algorithm the header claims.
    var algorithm: String
    /// The key it names, if any.
    var keyID: String?

    /// Parses the header part of `token`, or says why it cannot be used.
    init(token: String) throws(TokenAuthority.Rejection) {
        guard let dot = token.utf8.firstIndex(of: UInt8(ascii: ".")),
            let bytes = Self.base64URLDecoded(token.utf8[..<dot]),
            let header = try? JSONParser.parse(bytes), case .object = header
        else { throw TokenAuthority.Rejection(description: "the token's signature or format is not valid") }
        if let critical = header["crit"] {
            let names: String
            if case .array(let values) = critical {
                names = values.map { if case .string(let name) = $0 { name } else { $0.kindDescription } }.joined(separator: ", ")
            } else {
                names = critical.kindDescription
            }
            throw TokenAuthority.Rejection(
                description: "the token's header marks extensions as critical (crit: \(names.prefix(120))) that this server does not "
                    + "understand, so it must refuse the token (RFC 7515 §4.1.11)")
        }
        guard case .string(let algorithm)? = header["alg"] else {
            throw TokenAuthority.Rejection(description: "the token's header names no algorithm ('alg')")
        }
        self.algorithm = algorithm
        if case .string(let keyID)? = header["kid"] { self.keyID = keyID }
    }

    static func base64URLDecoded(_ text: Substring.UTF8View, limit: Int = 4_096) -> [UInt8]? {
        // A header is a few dozen bytes; anything long is not one of ours.
        guard !text.isEmpty, text.count <= limit else { return nil }
        var base64 = String(decoding: text, as: UTF8.self)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}

/// The issuer and audience a token claims, read before its signature is checked: they say
/// which keys may verify it (the server's own, or a service account's), and nothing else is
/// taken from them until the signature holds.
struct UnverifiedClaims {
    /// `iss`, if any.
    var issuer: String?
    /// `aud`, as a list (a single string is a list of one).
    var audience: [String] = []
    /// The first claim of ours whose value is of the wrong kind, with what it should be
    /// (`exp` given as a string, say): said when the payload of a token whose signature holds
    /// cannot be read, instead of a bare "not valid".
    var misTyped: (claim: String, expected: String, found: String)?

    /// Reads the payload part of `token`; what cannot be read is simply absent.
    init(token: String) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = TokenHeader.base64URLDecoded(parts[1], limit: 65_536),
            let payload = try? JSONParser.parse(bytes)
        else { return }
        if case .string(let issuer)? = payload["iss"] { self.issuer = issuer }
        switch payload["aud"] {
        case .string(let one)?: audience = [one]
        case .array(let many)?: audience = many.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: break
        }
        misTyped = Self.misTypedClaim(in: payload)
    }

    /// The kind of value each claim of ours must have: NumericDate times (RFC 7519), strings,
    /// and the `authorization` object.
    private static let expectedKinds: [(claim: String, kind: String)] = [
        ("exp", "a number"), ("iat", "a number"), ("nbf", "a number"), ("iss", "a string"), ("sub", "a string"),
        ("role", "a string"), ("authorization", "an object"),
    ]

    private static func misTypedClaim(in payload: JSONValue) -> (claim: String, expected: String, found: String)? {
        for (claim, kind) in expectedKinds {
            guard let value = payload[claim], value != .null, value.kindDescription != kind else { continue }
            let expected = kind == "a number" ? "a number of seconds since 1970" : kind
            return (claim, expected, value.kindDescription)
        }
        return nil
    }
}

/// Which algorithm each verification key is for, chosen as jwt-kit chooses the key: by
/// `kid` when the token names a known one, else the default key (the HMAC secret when there
/// is one, else the first key of the JWKS).
struct KeyAlgorithms: Sendable {
    /// The algorithm of each key that has an ID.
    private(set) var byKeyID: [String: String] = [:]
    private var defaultAlgorithm: String?

    /// The algorithms of an HMAC secret (HS256) and/or the keys of a JWKS document.
    init(hmac: Bool, jwksJSON: String?) throws(TokenAuthority.Rejection) {
        if hmac { defaultAlgorithm = "HS256" }
        guard let jwksJSON else { return }
        guard let document = try? JSONParser.parse(Array(jwksJSON.utf8)), case .array(let keys)? = document["keys"] else {
            throw TokenAuthority.Rejection(description: "the JWKS must be a JSON object with a 'keys' array")
        }
        for (index, key) in keys.enumerated() {
            guard case .string(let keyID)? = key["kid"] else {
                throw TokenAuthority.Rejection(description: "JWKS keys[\(index)] has no 'kid'")
            }
            guard let algorithm = Self.algorithm(of: key) else {
                throw TokenAuthority.Rejection(
                    description: "JWKS keys[\(index)] ('\(keyID)'): cannot tell its algorithm; give 'alg' (RS256 or ES256)")
            }
            byKeyID[keyID] = algorithm
            if defaultAlgorithm == nil { defaultAlgorithm = algorithm }
        }
    }

    /// The algorithm a token whose header names `keyID` must claim.
    func expected(keyID: String?) -> String? {
        if let keyID, let algorithm = byKeyID[keyID] { return algorithm }
        return defaultAlgorithm
    }

    /// A JWK's `alg`, else the one its key type implies (RSA keys are RS256 here, as DESIGN §4 says).
    private static func algorithm(of key: JSONValue) -> String? {
        if case .string(let algorithm)? = key["alg"] { return algorithm }
        switch (key["kty"], key["crv"]) {
        case (.string("RSA")?, _): return "RS256"
        case (.string("EC")?, .string("P-256")?): return "ES256"
        case (.string("EC")?, .string("P-384")?): return "ES384"
        case (.string("EC")?, .string("P-521")?): return "ES512"
        case (.string("OKP")?, _): return "EdDSA"
        default: return nil
        }
    }
}
