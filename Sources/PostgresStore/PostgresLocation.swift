import Foundation
import Logging
import PostgresNIO

/// Where a PostgreSQL database is and how to log in, from a URL:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` over TCP, or
/// `postgres://USER[:PASSWORD]@/DATABASE?host=/run/postgresql` over the Unix socket in that
/// directory (libpq's form; the port, 5432 by default, names the socket file). The query may
/// also name a `schema` (default `public`) so that several deployments, or tests, share one
/// database without seeing each other.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    package enum Endpoint: Sendable, Hashable {
        /// TCP, host and port.
        case tcp(host: String, port: Int)
        /// The socket file `DIRECTORY/.s.PGSQL.PORT`.
        case unixSocket(directory: String, port: Int)
    }

    /// How the server is reached.
    package var endpoint: Endpoint
    /// The role to log in as.
    package var username: String
    /// Its password, if the server asks for one.
    package var password: String?
    /// The database.
    package var database: String
    /// The schema tripshare's tables live in.
    public var schema: String

    /// Why a URL cannot name a database.
    public struct URLError: Error, CustomStringConvertible {
        /// What is wrong with the URL.
        public var description: String
    }

    /// Parses a `postgres://` (or `postgresql://`) URL.
    public init(url text: String) throws(URLError) {
        func fail(_ why: String) -> URLError {
            URLError(description: "'\(Self.redacted(text))' is not a PostgreSQL URL: \(why) (expected postgres://USER[:PASSWORD]@HOST:PORT/DB)")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw fail("it must start with postgres://") }
        guard let user = components.user, !user.isEmpty else { throw fail("it names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw fail("it names no database after the host") }
        var schema = "public"
        var socketDirectory: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                guard let value = item.value, Self.isPlainIdentifier(value) else {
                    throw fail("schema must be a plain identifier (lower-case letters, digits and _)")
                }
                schema = value
            case "host":
                guard let value = item.value, value.hasPrefix("/") else { throw fail("host= must be the socket's directory") }
                socketDirectory = value
            case "sslmode":
                // Only loopback and socket set-ups are supported; TLS is not configured.
                guard item.value == "disable" else { throw fail("TLS is not supported (sslmode=disable only)") }
            default:
                throw fail("unknown parameter '\(item.name)' (schema, host and sslmode=disable are known)")
            }
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw fail("the port is out of range") }
        if let socketDirectory {
            endpoint = .unixSocket(directory: socketDirectory, port: port)
        } else {
            guard let host = components.host, !host.isEmpty else { throw fail("it names no host (or ?host=/socket/dir)") }
            endpoint = .tcp(host: host, port: port)
        }
        username = user
        password = components.password
        self.database = database
        self.schema = schema
    }

    /// A location from its parts.
    package init(endpoint: Endpoint, username: String, password: String?, database: String, schema: String = "public") {
        self.endpoint = endpoint
        self.username = username
        self.password = password
        self.database = database
        self.schema = schema
    }

    /// This location with another schema.
    package func inSchema(_ schema: String) -> PostgresLocation {
        var copy = self
        copy.schema = schema
        return copy
    }

    /// The URL without its password, for messages and logs.
    public var description: String { url(namingSchema: true) }

    /// The URL PostgreSQL's own programs (psql, pg_dump) take: without the password (they
    /// read it from PGPASSWORD or ~/.pgpass, or ask for it) and without `schema`, which libpq
    /// does not know (pg_dump's `--schema` names it).
    package var toolURL: String { url(namingSchema: false) }

    private func url(namingSchema: Bool) -> String {
        var query: [String] = []
        let server: String
        switch endpoint {
        case .tcp(let host, let port): server = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .unixSocket(let directory, let port):
            server = port == 5432 ? "" : ":\(port)"
            query.append("host=\(directory)")
        }
        if namingSchema, schema != "public" { query.append("schema=\(schema)") }
        return "postgres://\(username)@\(server)/\(database)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// `text` with any password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// Lower-case letters, digits and `_`, starting with a letter: safe to quote into SQL.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.utf8.count <= 63 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// postgres-nio's configuration for a connection here: tripshare's schema first on the
    /// search path, and a name the server's views show.
    func connectionConfiguration(connectTimeout: Duration) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            configuration = .init(host: host, port: port, username: username, password: password, database: database, tls: .disable)
        case .unixSocket(let directory, let port):
            configuration = .init(
                unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        }
        let milliseconds = connectTimeout.components.seconds * 1_000 + connectTimeout.components.attoseconds / 1_000_000_000_000_000
        configuration.options.connectTimeout = .milliseconds(milliseconds)
        configuration.options.additionalStartupParameters = [("search_path", schema), ("application_name", "tripshare")]
        return configuration
    }
}
