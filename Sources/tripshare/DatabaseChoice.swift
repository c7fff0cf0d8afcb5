import ArgumentParser
import Caching
import Foundation
import Logging
import PostgresStore
import SQLiteStore
import TripModel
import TripStore

/// The store `--database` names (DESIGN §11): an SQLite file (a path, or `sqlite:PATH`) or a
/// PostgreSQL database (`postgres://USER[:PASSWORD]@HOST:PORT/DB`, or the Unix-socket form
/// `postgres://USER@/DB?host=/run/postgresql`).
enum DatabaseChoice: CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// The help text of `--database`.
    static let help = ArgumentHelp(
        "The database: an SQLite file (a path or sqlite:PATH; default DATA-DIR/tripshare.sqlite) or PostgreSQL "
            + "(postgres://USER[:PASSWORD]@HOST:PORT/DB, or postgres://USER@/DB?host=SOCKET-DIR; ?schema=NAME for a schema "
            + "other than public). Env TRIPSHARE_DATABASE_URL.",
        valueName: "url")

    /// True for SQLite, whose data directory holds the database and the signing key.
    var isSQLite: Bool {
        if case .sqlite = self { true } else { false }
    }

    /// Parses a `--database` value.
    init(_ text: String) throws {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            do {
                self = .postgres(try PostgresLocation(url: text))
            } catch {
                throw ValidationError(error.description)
            }
        } else if lowered.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ValidationError("--database sqlite: needs a path (sqlite:PATH)") }
            self = .sqlite(path: path)
        } else if lowered.contains("://") {
            let shown = text.count > 40 ? text.prefix(40) + "..." : Substring(text)
            throw ValidationError("--database '\(shown)': only sqlite: paths and postgres:// URLs are supported")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// Where the data is, for messages (no password).
    var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): location.description
        }
    }

    /// Opens the store, applying its migrations. A PostgreSQL server that cannot be reached
    /// is a start-up error saying where it was looked for. Its caches are
    /// `cacheBudget`'s. `server`: a server's store, which on SQLite is the file's only
    /// writer (a second server on it is a start-up error).
    func open(cacheBudget: CacheBudget = .standard, server: Bool = false) async throws -> any TripStore {
        switch self {
        case .sqlite(let path):
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            do {
                return try SQLiteTripStore(path: path, cacheBudget: cacheBudget, soleWriter: server)
            } catch let error as DatabaseInUse {
                throw StartupError(description: error.description)
            }
        case .postgres(let location):
            do {
                return try await PostgresTripStore(location: location, cacheBudget: cacheBudget)
            } catch let error as StatusError where error.code == .unavailable {
                throw StartupError(description: "cannot open the store: \(error.message)")
            }
        }
    }
}

/// A start-up failure: said in one line, and the process exits non-zero.
struct StartupError: Error, CustomStringConvertible {
    var description: String
}
