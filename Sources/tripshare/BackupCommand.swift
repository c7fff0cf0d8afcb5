import ArgumentParser
import Foundation
import PostgresStore
import SQLiteStore

/// `tripshare backup`: a consistent copy of the SQLite database while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the live SQLite database into one file, consistently, while the server writes to it.",
        discussion: """
            Uses SQLite's online backup: the copy is the database as it was when the backup started, \
            and the server goes on reading and writing meanwhile. The copy is checked with PRAGMA integrity_check \
            and written as one self-contained file; restore it by stopping the server and copying it to \
            DATA_DIR/tripshare.sqlite (remove any tripshare.sqlite-wal and -shm files there first). \
            For a PostgreSQL database, use pg_dump.
            """)

    @Option(name: .customLong("data-dir"), help: "The server's data directory (env TRIPSHARE_DATA_DIR; default ./data).")
    var dataDirectory: String?

    @Option(
        name: .customLong("database"),
        help: "The database instead: a file path or sqlite:PATH (env TRIPSHARE_DATABASE_URL); postgres:// URLs are for pg_dump.")
    var database: String?

    @Option(name: .customLong("out"), help: "The file to write; it must not exist yet.")
    var output: String

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    func validate() throws {
        if dataDirectory != nil, database != nil { throw ValidationError("give --data-dir or --database, not both") }
        _ = try sourcePath()
    }

    /// The SQLite file to copy: --data-dir's, else --database's (or TRIPSHARE_DATABASE_URL's),
    /// else TRIPSHARE_DATA_DIR's, else ./data's.
    func sourcePath() throws -> String {
        if let dataDirectory { return (dataDirectory as NSString).appendingPathComponent("tripshare.sqlite") }
        if let url = database ?? Self.environment["TRIPSHARE_DATABASE_URL"] {
            switch try DatabaseChoice(url) {
            case .sqlite(let path): return path
            case .postgres(let location): throw ValidationError(Self.pgDumpAdvice(location))
            }
        }
        let directory = Self.environment["TRIPSHARE_DATA_DIR"] ?? "data"
        return (directory as NSString).appendingPathComponent("tripshare.sqlite")
    }

    /// How to back a PostgreSQL database up instead, with commands to copy: PostgreSQL's own
    /// tools, which copy one consistent snapshot while the servers write.
    static func pgDumpAdvice(_ location: PostgresLocation) -> String {
        let schema = location.schema == "public" ? "" : " --schema=\(location.schema)"
        return """
            tripshare backup copies SQLite databases; back a PostgreSQL database up with pg_dump while the servers run:
              pg_dump --format=custom\(schema) --file=tripshare.dump '\(location.toolURL)'
            and restore it (servers stopped) with:
              pg_restore --clean --if-exists --dbname='\(location.toolURL)' tripshare.dump
            (both ask for the password, or read it from PGPASSWORD or ~/.pgpass)
            """
    }

    func run() throws {
        let source = try sourcePath()
        let progress = ProgressLine(label: "backup")
        let start = Date()
        let summary = try SQLiteBackup.copy(from: source, to: output) { copied, total in progress.update(copied, of: total) }
        progress.finish()
        let megabytes = Double(summary.bytes) / 1_048_576
        print(
            String(
                format: "Backed up %@ to %@: %d pages, %.1f MB in %.1f s; integrity_check ok.",
                source, output, summary.pages, megabytes, Date().timeIntervalSince(start)))
    }
}
