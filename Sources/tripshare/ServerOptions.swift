import ArgumentParser
import Fleet
import Foundation

/// Options shared by the commands that run or open a server's data: each flag falls back
/// to a `TRIPSHARE_*` environment variable, then to the default.
struct ServerOptions: ParsableArguments {
    @Option(help: "Address to listen on (env TRIPSHARE_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (env TRIPSHARE_PORT; default 8080).")
    var port: Int?

    @Option(name: .customLong("data-dir"), help: "Directory for the database and the signing key (env TRIPSHARE_DATA_DIR; default ./data).")
    var dataDirectory: String?

    @Option(name: .customLong("log-format"), help: "Log format: text or json (env TRIPSHARE_LOG_FORMAT; default text).")
    var logFormat: LogFormat?

    @Option(name: .customLong("database"), help: DatabaseChoice.help)
    var database: String?

    @Option(
        name: .customLong("event-retention"),
        help: ArgumentHelp(
            "How long the event log keeps events, such as 90s, 30m, 24h or 7d (env TRIPSHARE_EVENT_RETENTION; default 24h).",
            discussion: "Older events are deleted in small batches in the background, except each vehicle's newest "
                + "1,000 locations (its location history). An SSE client resuming from a deleted event is told so.",
            valueName: "duration"))
    var eventRetention: String?

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    var resolvedHost: String { host ?? Self.environment["TRIPSHARE_HOST"] ?? "127.0.0.1" }

    func resolvedPort() throws -> Int {
        if let port { return port }
        guard let text = Self.environment["TRIPSHARE_PORT"] else { return 8080 }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw ValidationError("TRIPSHARE_PORT must be a port number, got '\(text)'")
        }
        return port
    }

    var resolvedDataDirectory: String { dataDirectory ?? Self.environment["TRIPSHARE_DATA_DIR"] ?? "data" }

    func resolvedLogFormat() throws -> LogFormat {
        if let logFormat { return logFormat }
        guard let text = Self.environment["TRIPSHARE_LOG_FORMAT"] else { return .text }
        guard let format = LogFormat(rawValue: text) else {
            throw ValidationError("TRIPSHARE_LOG_FORMAT must be text or json, got '\(text)'")
        }
        return format
    }

    func resolvedEventRetention() throws -> EventRetention {
        let (text, source) =
            eventRetention.map { ($0, "--event-retention") }
            ?? Self.environment["TRIPSHARE_EVENT_RETENTION"].map { ($0, "TRIPSHARE_EVENT_RETENTION") } ?? ("", "")
        if source.isEmpty { return .standard }
        guard let retention = EventRetention(text) else {
            throw ValidationError("\(source) must be a duration such as 90s, 30m, 24h or 7d (at most 3650d), got '\(text)'")
        }
        return retention
    }

    /// The database path inside the data directory.
    var databasePath: String { (resolvedDataDirectory as NSString).appendingPathComponent("tripshare.sqlite") }

    /// The store `--database` (or TRIPSHARE_DATABASE_URL) names; the data directory's SQLite
    /// file by default.
    func resolvedDatabase() throws -> DatabaseChoice {
        guard let text = database ?? Self.environment["TRIPSHARE_DATABASE_URL"], !text.isEmpty else { return .sqlite(path: databasePath) }
        return try DatabaseChoice(text)
    }

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        // The environment's value is checked where it is used (serve, demo), not by every
        // command that shares these options.
        if eventRetention != nil { _ = try resolvedEventRetention() }
    }
}

/// How log lines are written.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
