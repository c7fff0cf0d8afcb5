import AccessTesting
import Foundation
import JWTKit
import Testing
import TripModel

@testable import Access

/// A service account made here as Google makes one: an RSA key pair whose public half is in
/// the server's `--service-accounts` file, by key ID, as a PEM certificate.
struct TestServiceAccount {
    let email: String
    let keyID: String
    let privateKeyPEM: String
    let certificatePEM: String
    let publicKeyPEM: String

    init(_ name: String, directory: URL) throws {
        email = "\(name)@tripshare-test.iam.gserviceaccount.com"
        keyID = "\(name)-key"
        let key = directory.appendingPathComponent("\(name).key").path
        let certificate = directory.appendingPathComponent("\(name).crt").path
        try Self.openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj", "/CN=\(name)")
        privateKeyPEM = try String(contentsOfFile: key, encoding: .utf8)
        certificatePEM = try String(contentsOfFile: certificate, encoding: .utf8)
        publicKeyPEM = try Self.openssl("pkey", "-in", key, "-pubout")
    }

    @discardableResult
    static func openssl(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }

    /// A token as Fleet Engine's documentation mints one, signed with this account's key
    /// (or `signer`'s) under `keyID`.
    func token(
        _ authorization: [String: String], audience: String = TokenAuthority.fleetEngineAudience, subject: String? = nil,
        keyID: String? = nil, signer: TestServiceAccount? = nil, issuedAt: Double = 0, lifetime: Double = 3_600
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(
            rsa: try Insecure.RSA.PrivateKey(pem: (signer ?? self).privateKeyPEM), digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: keyID ?? self.keyID))
        let issued = epoch.secondsSince1970 + issuedAt
        return try await keys.sign(
            FleetEngineClaims(
                iss: IssuerClaim(value: email), sub: SubjectClaim(value: subject ?? email), aud: AudienceClaim(value: [audience]),
                iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issued)),
                exp: ExpirationClaim(value: Date(timeIntervalSince1970: issued + lifetime)), authorization: authorization),
            kid: JWKIdentifier(string: keyID ?? self.keyID))
    }
}

/// The claims of a Fleet Engine token: no role, no provider.
struct FleetEngineClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var authorization: [String: String]
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Fleet Engine–shaped tokens (DESIGN §4): accepted from the service accounts the server
/// lists, with the account's role and provider; refused, saying why, otherwise.
@Suite struct FleetEngineTokenTests {
    let directory: URL
    let driver: TestServiceAccount
    let rider: TestServiceAccount
    let backend: TestServiceAccount
    let stranger: TestServiceAccount

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        driver = try TestServiceAccount("driver", directory: directory)
        rider = try TestServiceAccount("rider", directory: directory)
        backend = try TestServiceAccount("backend", directory: directory)
        stranger = try TestServiceAccount("stranger", directory: directory)
    }

    /// The accounts file: the driver's keys as a file of certificates beside it, the rider's
    /// inline as a PEM public key, the backend's as a JWKS.
    func accounts() async throws -> ServiceAccounts {
        let driverKeys = directory.appendingPathComponent("driver-x509.json")
        try JSONSerialization.data(withJSONObject: [driver.keyID: driver.certificatePEM]).write(to: driverKeys)
        let modulus = try TestServiceAccount.openssl("rsa", "-in", directory.appendingPathComponent("backend.key").path, "-noout", "-modulus")
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        let jwks: [String: Any] = [
            "keys": [["kty": "RSA", "kid": backend.keyID, "alg": "RS256", "e": "AQAB", "n": Self.base64URL(hex: modulus)]]
        ]
        let document: [String: Any] = [
            "accounts": [
                ["email": driver.email, "role": "driver", "provider": "fleet", "keys": "driver-x509.json"],
                ["email": rider.email, "role": "consumer", "provider": "fleet", "keys": [rider.keyID: rider.publicKeyPEM]],
                ["email": backend.email, "role": "server", "provider": "fleet", "keys": jwks],
            ]
        ]
        let file = directory.appendingPathComponent("accounts.json")
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        return try await ServiceAccounts.load(path: file.path)
    }

    static func base64URL(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    func authority() async throws -> TokenAuthority {
        try await TokenAuthority(hmacSecret: secret, serviceAccounts: try await accounts(), clock: .fixed(epoch))
    }

    /// Each account's token is accepted with the account's role and provider, and the trip or
    /// vehicle its `authorization` claim names; the server's own tokens still work beside them.
    @Test func acceptedWithTheAccountsRole() async throws {
        let authority = try await authority()
        #expect(
            try await authority.verify(try await driver.token(["vehicleid": "car-1"]))
                == Principal(role: .driver, provider: "fleet", vehicleId: "car-1", subject: driver.email))
        #expect(
            try await authority.verify(try await rider.token(["tripid": "trip-1"]))
                == Principal(role: .consumer, provider: "fleet", tripId: "trip-1", subject: rider.email))
        #expect(
            try await authority.verify(try await backend.token(["vehicleid": "*"]))
                == Principal(role: .server, provider: "fleet", subject: backend.email))
        #expect(try await authority.verify(try await forge()) == Principal(role: .server, provider: "p"))
    }

    /// What is wrong with a token is said: the account, the key, the audience, the subject,
    /// the signature, the claim a role needs, the time.
    @Test func refusalsSayWhy() async throws {
        let authority = try await authority()
        let cases: [(String, String)] = [
            (try await stranger.token([:]), "issuer '\(stranger.email)' is not a service account this server knows"),
            (try await driver.token(["vehicleid": "car-1"], keyID: "rotated-away"), "key ID 'rotated-away' is not among the keys"),
            (try await driver.token(["vehicleid": "car-1"], audience: "https://example.com/"), "must have the audience"),
            (try await driver.token(["vehicleid": "car-1"], subject: "someone@else"), "'sub' must be its service account"),
            (try await driver.token(["vehicleid": "car-1"], signer: stranger), "signature does not verify with key 'driver-key'"),
            (try await driver.token(["vehicleid": "*"]), "must name its vehicle in authorization.vehicleid"),
            (try await rider.token(["vehicleid": "car-1"]), "must name its trip in authorization.tripid"),
            (try await driver.token(["vehicleid": "car-1"], issuedAt: -7_300), "the token has expired"),
            (try await driver.token(["vehicleid": "car-1"], lifetime: 7_200), "at most 3600 s are allowed"),
        ]
        for (token, message) in cases {
            do {
                _ = try await authority.verify(token)
                Issue.record("accepted a token that should say '\(message)'")
            } catch {
                #expect(error.description.contains(message), "'\(error.description)' should say '\(message)'")
            }
        }
        let unlisted = try await TokenAuthority(hmacSecret: secret, clock: .fixed(epoch))
        await #expect(throws: TokenAuthority.Rejection.self) { _ = try await unlisted.verify(try await driver.token(["vehicleid": "car-1"])) }
        let unlistedToken = try await driver.token(["vehicleid": "car-1"])
        do {
            _ = try await unlisted.verify(unlistedToken)
        } catch {
            #expect(error.description.contains("started without --service-accounts"), "\(error.description)")
        }
    }

    /// A file that cannot be used stops the server, naming the file, the account and the fault.
    @Test func badFilesAreRefused() async throws {
        func refusal(_ json: String) async -> String {
            do {
                _ = try await ServiceAccounts.parse(Array(json.utf8), file: directory.appendingPathComponent("a.json").path)
                return "accepted"
            } catch {
                return error.description
            }
        }
        let pem = driver.certificatePEM.replacingOccurrences(of: "\n", with: "\\n")
        #expect(await refusal("[]").contains("must be an object with an 'accounts' array"))
        #expect(await refusal(#"{"accounts": [{"email": "x"}]}"#).contains("'email' must be"))
        #expect(await refusal(#"{"accounts": [{"email": "a@b", "role": "admin"}]}"#).contains("'role' must be consumer, driver or server"))
        #expect(await refusal(#"{"accounts": [{"email": "a@b", "role": "driver", "provider": "*", "keys": {}}]}"#).contains("only a server account"))
        #expect(
            await refusal(#"{"accounts": [{"email": "a@b", "role": "driver", "provider": "p", "keys": "missing.json"}]}"#).contains(
                "cannot read its keys file"))
        #expect(
            await refusal(#"{"accounts": [{"email": "a@b", "role": "driver", "provider": "p", "keys": {"k": "not a pem"}}]}"#).contains(
                "key 'k' is not an RSA"))
        #expect(await refusal(#"{"accounts": [{"email": "a@b", "role": "driver", "provider": "p", "keys": {}}]}"#).contains("holds no key"))
        let twice = #"{"email": "a@b", "role": "driver", "provider": "p", "keys": {"k": "\#(pem)"}}"#
        #expect(await refusal(#"{"accounts": [\#(twice), \#(twice)]}"#).contains("listed twice"))
    }
}
