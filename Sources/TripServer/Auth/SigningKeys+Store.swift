import Access
import TripStore

extension SigningKeys {
    /// The name of the token signing secret in a shared store.
    package static let sharedSecretName = "jwt-secret"

    /// Resolves the keys from the environment, else from (or into) `store` (`place` says
    /// which, for messages): every server process on one database signs and verifies with
    /// the secret it keeps (DESIGN §4), which the first process to need one creates.
    package static func resolve(environment: [String: String], sharedIn store: any SecretStore, at place: String) async throws -> SigningKeys {
        var (keys, sources) = try configured(environment: environment)
        if sources.isEmpty {
            let (secret, created) = try await store.secret(named: sharedSecretName) { Array(randomSecret().utf8) }
            guard secret.count >= TokenAuthority.minimumSecretLength else {
                throw LoadError(
                    description: "the secret '\(sharedSecretName)' in \(place) is shorter than \(TokenAuthority.minimumSecretLength) bytes")
            }
            keys.hmacSecret = secret
            keys.createdInStore = created
            sources.append("the database (\(place))")
        }
        keys.source = sources.joined(separator: " and ")
        return keys
    }
}
