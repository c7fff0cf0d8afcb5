import Foundation

/// Where the server's token keys come from (DESIGN §4): `TRIPSHARE_JWT_SECRET` (HS256)
/// and/or `TRIPSHARE_JWKS` (a JWKS file of public keys); with neither, a random secret in the
/// data directory, created on first use with mode 0600.
package struct SigningKeys: Sendable {
    /// The HS256 secret, if any.
    package var hmacSecret: [UInt8]?
    /// The JWKS document, if any.
    package var jwksJSON: String?
    /// Where the keys came from, for the start-up message.
    package var source: String
    /// The secret file created just now, if one was (the user should be told).
    package var createdSecretFile: String?
    /// Whether the secret was created just now in the shared store (SigningKeys+Store.swift).
    package var createdInStore = false

    /// The name of the secret file in the data directory.
    package static let secretFileName = "jwt-secret"

    /// Why the keys could not be loaded.
    package struct LoadError: Error, CustomStringConvertible {
        /// What went wrong, for the user.
        package var description: String

        /// Creates the error that `description` explains.
        package init(description: String) { self.description = description }
    }

    /// Resolves the keys from the environment, else from (or into) the data directory.
    package static func resolve(environment: [String: String], dataDirectory: String) throws -> SigningKeys {
        var (keys, sources) = try configured(environment: environment)
        if sources.isEmpty {
            let path = (dataDirectory as NSString).appendingPathComponent(secretFileName)
            if !FileManager.default.fileExists(atPath: path) {
                try createSecret(at: path, directory: dataDirectory)
                keys.createdSecretFile = path
            }
            let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.utf8.count >= TokenAuthority.minimumSecretLength else {
                throw LoadError(description: "the secret in \(path) is shorter than \(TokenAuthority.minimumSecretLength) bytes")
            }
            keys.hmacSecret = Array(text.utf8)
            sources.append(path)
        }
        keys.source = sources.joined(separator: " and ")
        return keys
    }

    /// The keys the environment configures, and where they came from (none when unset).
    package static func configured(environment: [String: String]) throws -> (SigningKeys, [String]) {
        var keys = SigningKeys(hmacSecret: nil, jwksJSON: nil, source: "", createdSecretFile: nil)
        var sources: [String] = []
        if let secret = environment["TRIPSHARE_JWT_SECRET"], !secret.isEmpty {
            guard secret.utf8.count >= TokenAuthority.minimumSecretLength else {
                throw LoadError(description: "TRIPSHARE_JWT_SECRET must be at least \(TokenAuthority.minimumSecretLength) bytes long")
            }
            keys.hmacSecret = Array(secret.utf8)
            sources.append("TRIPSHARE_JWT_SECRET")
        }
        if let path = environment["TRIPSHARE_JWKS"], !path.isEmpty {
            do {
                keys.jwksJSON = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw LoadError(description: "cannot read the JWKS file TRIPSHARE_JWKS=\(path): \(error.localizedDescription)")
            }
            sources.append("TRIPSHARE_JWKS (\(path))")
        }
        return (keys, sources)
    }

    private static func createSecret(at path: String, directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = randomSecret() + "\n"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw LoadError(description: "cannot create the secret file \(path)")
        }
    }

    /// A new random secret: 48 random bytes, base64url.
    package static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<48).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }
}
