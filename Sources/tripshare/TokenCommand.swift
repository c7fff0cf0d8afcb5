import Access
import ArgumentParser
import Foundation
import TripServer

/// `tripshare token`: mints a token with the server's key.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint an API token (HS256) with the same key the server uses.",
        discussion: """
            Every token is bound to one provider (--provider): a consumer token reads one of its trips \
            (--trip), a driver token acts for one of its vehicles (--vehicle), a server token may do \
            everything with its resources. A server token for every provider (--provider '*', said \
            explicitly) may also change the styles all providers share. The key is \
            TRIPSHARE_JWT_SECRET, else the secret file in --data-dir (created if missing, like `serve` does), \
            or with a PostgreSQL --database the secret every server on that database shares; which one was \
            used is said on standard error.
            """
    )

    @Option(help: "consumer, driver or server.")
    var role: RoleArgument

    @Option(help: "The provider the token is for; '*' (server tokens only) for every provider.")
    var provider: String?

    @Option(help: "The trip a consumer token may read.")
    var trip: String?

    @Option(help: "The vehicle a driver token may act for.")
    var vehicle: String?

    @Option(help: "Lifetime in seconds, at most 3600.")
    var ttl: Int = 3600

    @Option(help: "The token's subject (who it is for), for logs.")
    var subject: String?

    @Option(name: .customLong("data-dir"), help: "The server's data directory (env TRIPSHARE_DATA_DIR; default ./data).")
    var dataDirectory: String?

    @Option(name: .customLong("database"), help: DatabaseChoice.help)
    var database: String?

    func validate() throws {
        switch role.role {
        case .consumer where trip == nil: throw ValidationError("a consumer token needs --trip")
        case .driver where vehicle == nil: throw ValidationError("a driver token needs --vehicle")
        default: break
        }
        if provider == nil {
            switch role.role {
            case .consumer, .driver:
                let resource = role.role == .consumer ? "trip" : "vehicle"
                throw ValidationError("a \(role.role.rawValue) token needs --provider: the provider whose \(resource) it is (e.g. --provider demo)")
            case .server:
                // A token for every provider is not minted by omission (issue 29, item 8).
                throw ValidationError(
                    "a server token needs --provider: the provider whose resources it acts on (e.g. --provider demo), "
                        + "or --provider '*' for every provider (which may also change the styles all providers share)")
            }
        }
        if role.role != .server, provider == Principal.allProviders {
            throw ValidationError("only a server token may be for every provider ('*'); give the one provider")
        }
        if !(1...3600).contains(ttl) { throw ValidationError("--ttl must be between 1 and 3600 seconds") }
    }

    func run() async throws {
        let keys = try await resolveKeys()
        if let created = keys.createdSecretFile {
            FileHandle.standardError.write(Data("Created a token signing key in \(created) (mode 0600).\n".utf8))
        }
        if keys.createdInStore {
            FileHandle.standardError.write(Data("Created a token signing key in the database; every server on it uses it.\n".utf8))
        }
        guard let secret = keys.hmacSecret else {
            throw ValidationError("minting needs an HMAC secret: set TRIPSHARE_JWT_SECRET (a JWKS holds only public keys)")
        }
        let authority = try await TokenAuthority(hmacSecret: secret)
        // validate() requires a provider.
        let principal = Principal(role: role.role, provider: provider ?? "", tripId: trip, vehicleId: vehicle, subject: subject)
        print(try await authority.mint(principal, lifetime: Double(ttl)))
        // On standard error, so `TOKEN=$(tripshare token ...)` still captures the token alone: a
        // token signed with another key than the server's is refused, and this says which was used.
        FileHandle.standardError.write(Data("Signed with the key from \(keys.source).\n".utf8))
    }
}

extension TokenCommand {
    /// The keys of the server whose --database (PostgreSQL: the secret kept in it) or
    /// --data-dir this names.
    func resolveKeys() async throws -> SigningKeys {
        var options = try ServerOptions.parse([])
        options.dataDirectory = dataDirectory
        options.database = database
        let choice = try options.resolvedDatabase()
        guard case .postgres = choice, ServerOptions.environment["TRIPSHARE_JWT_SECRET"]?.isEmpty != false else {
            return try SigningKeys.resolve(environment: ServerOptions.environment, dataDirectory: options.resolvedDataDirectory)
        }
        return try await options.signingKeys(database: choice, store: try await choice.open())
    }
}

/// `--role` values.
struct RoleArgument: ExpressibleByArgument {
    let role: Role
    init?(argument: String) {
        guard let role = Role(rawValue: argument) else { return nil }
        self.role = role
    }
    static var allValueStrings: [String] { Role.allCases.map(\.rawValue) }
}
