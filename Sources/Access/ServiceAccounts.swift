import Foundation
import JSON
import JWTKit
import TripModel

/// The Google service accounts whose Fleet Engine–shaped tokens this server accepts (DESIGN
/// §4), read from the `--service-accounts` file.
///
/// Fleet Engine users mint tokens with a service account's private key; the role is the
/// account's, not a claim's. Each account here is an e-mail, the role and the provider its
/// tokens act for, and its public keys: Google's JWKS document for the account, or its x509
/// document (PEM certificates, or PEM public keys, by key ID), inline or as a file beside
/// this one:
///
/// ```json
/// {"accounts": [
///   {"email": "driver@my-project.iam.gserviceaccount.com", "role": "driver", "provider": "my-project",
///    "keys": "driver-keys.json"},
///   {"email": "backend@my-project.iam.gserviceaccount.com", "role": "server", "provider": "my-project",
///    "keys": {"3f2a...": "-----BEGIN CERTIFICATE-----\n..."}}
/// ]}
/// ```
package struct ServiceAccounts: Sendable {
    /// One account: who it is, what its tokens may do, and the keys that verify them.
    package struct Account: Sendable {
        /// The account's e-mail: its tokens' `iss` and `sub`.
        package var email: String
        /// The role of every token the account signs.
        package var role: Role
        /// The provider its tokens act for (``Principal/allProviders`` only for a server).
        package var provider: String
        /// The algorithm each key verifies, by key ID.
        var algorithms: [String: String]
        /// The keys, by key ID.
        let keys: JWTKeyCollection
    }

    /// Why the file cannot be used, for the start-up message.
    package struct LoadError: Error, CustomStringConvertible {
        /// What is wrong, naming the file and the account.
        package var description: String
    }

    /// The accounts, by e-mail.
    private(set) var accounts: [String: Account]

    /// No account: only the server's own tokens are accepted.
    package static let none = ServiceAccounts(accounts: [:])

    /// Whether no account is listed.
    package var isEmpty: Bool { accounts.isEmpty }

    /// The account with `email`, if listed.
    func account(_ email: String) -> Account? { accounts[email] }

    /// The accounts of the file at `path` (key files named in it are read relative to it).
    package static func load(path: String) async throws(LoadError) -> ServiceAccounts {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the service accounts file \(path)")
        }
        return try await parse(Array(data), file: path)
    }

    /// The accounts of a file's bytes; `file` names it in errors and locates its key files.
    package static func parse(_ bytes: [UInt8], file: String) async throws(LoadError) -> ServiceAccounts {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw LoadError(description: "the service accounts file \(file) is not JSON: \(error.description)")
        }
        guard case .array(let entries)? = document["accounts"] else {
            throw LoadError(description: "the service accounts file \(file) must be an object with an 'accounts' array")
        }
        let directory = (file as NSString).deletingLastPathComponent
        var accounts: [String: Account] = [:]
        for (index, entry) in entries.enumerated() {
            let place = "\(file): accounts[\(index)]"
            let account = try await Self.account(entry, place: place, directory: directory)
            if accounts[account.email] != nil { throw LoadError(description: "\(place): '\(account.email)' is listed twice") }
            accounts[account.email] = account
        }
        return ServiceAccounts(accounts: accounts)
    }

    private static func account(_ entry: JSONValue, place: String, directory: String) async throws(LoadError) -> Account {
        guard case .string(let email)? = entry["email"], email.contains("@") else {
            throw LoadError(description: "\(place): 'email' must be the service account's e-mail address")
        }
        let place = "\(place) ('\(email)')"
        guard case .string(let roleName)? = entry["role"], let role = Role(rawValue: roleName) else {
            throw LoadError(description: "\(place): 'role' must be consumer, driver or server")
        }
        guard case .string(let provider)? = entry["provider"] else {
            throw LoadError(description: "\(place): 'provider' must name the provider its tokens act for")
        }
        if provider == Principal.allProviders {
            guard role == .server else { throw LoadError(description: "\(place): only a server account may act for every provider ('*')") }
        } else {
            do {
                try ResourceName.validateID(provider, field: "provider")
            } catch {
                throw LoadError(description: "\(place): \(error.message)")
            }
        }
        let document: JSONValue
        switch entry["keys"] {
        case .string(let path)?:
            let resolved = path.hasPrefix("/") ? path : (directory as NSString).appendingPathComponent(path)
            guard let data = FileManager.default.contents(atPath: resolved) else {
                throw LoadError(description: "\(place): cannot read its keys file \(resolved)")
            }
            do {
                document = try JSONParser.parse(Array(data))
            } catch {
                throw LoadError(description: "\(place): its keys file \(resolved) is not JSON: \(error.description)")
            }
        case .object?: document = entry["keys"] ?? .null
        default:
            throw LoadError(
                description: "\(place): 'keys' must be the account's JWKS or x509 document (key ID to PEM), or the path of one")
        }
        let keys = JWTKeyCollection()
        let algorithms = try await Self.add(document, to: keys, place: place)
        if algorithms.isEmpty { throw LoadError(description: "\(place): its keys document holds no key") }
        return Account(email: email, role: role, provider: provider, algorithms: algorithms, keys: keys)
    }

    /// Adds a JWKS document's keys, or an x509 document's (key ID to PEM certificate or public
    /// key), and returns the algorithm of each by key ID.
    private static func add(_ document: JSONValue, to keys: JWTKeyCollection, place: String) async throws(LoadError) -> [String: String] {
        guard case .object(let members) = document else { throw LoadError(description: "\(place): its keys must be a JSON object") }
        if case .array? = document["keys"] {
            let text = (try? JSONStreamEncoder().encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let algorithms: KeyAlgorithms
            do {
                algorithms = try KeyAlgorithms(hmac: false, jwksJSON: text)
                try await keys.add(jwksJSON: text)
            } catch let error as TokenAuthority.Rejection {
                throw LoadError(description: "\(place): \(error.description)")
            } catch {
                throw LoadError(description: "\(place): its JWKS cannot be used: \(error)")
            }
            return algorithms.byKeyID
        }
        var algorithms: [String: String] = [:]
        for (keyID, value) in members {
            guard case .string(let pem) = value else {
                throw LoadError(description: "\(place): key '\(keyID)' must be a PEM certificate or public key")
            }
            do {
                let key =
                    pem.contains("BEGIN CERTIFICATE")
                    ? try Insecure.RSA.PublicKey(certificatePEM: pem) : try Insecure.RSA.PublicKey(pem: pem)
                await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
            } catch {
                throw LoadError(description: "\(place): key '\(keyID)' is not an RSA certificate or public key in PEM: \(error)")
            }
            algorithms[keyID] = "RS256"
        }
        return algorithms
    }
}
