import Foundation
import GRDB

/// A consistent copy of a live database file (DESIGN §11, `tripshare backup`), taken with
/// SQLite's online backup while a server keeps writing to it.
///
/// The copy runs inside one read transaction on the source: in WAL mode that transaction sees
/// one snapshot from start to end (the commits made meanwhile are not in it, and do not make
/// the copy start over), and it never blocks the server's writer. The copy is written beside
/// the destination, checked with `PRAGMA integrity_check`, turned into a single
/// self-contained file (rollback journal, no `-wal` beside it) and only then renamed into
/// place: an interrupted backup never leaves a file that looks complete.
package enum SQLiteBackup {
    /// What a backup wrote.
    package struct Summary: Sendable {
        /// Pages copied.
        package var pages: Int
        /// The copy's size in bytes.
        package var bytes: Int
    }

    /// Why a backup was not made.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, naming the file.
        package var description: String
    }

    /// Copies the database at `source` into a new file at `destination` (which must not
    /// exist), `pagesPerStep` pages at a time, calling `progress` with the pages copied and
    /// the total after each step (all in the one snapshot).
    package static func copy(
        from source: String, to destination: String, pagesPerStep: Int = 4_096,
        progress: ((_ copied: Int, _ total: Int) -> Void)? = nil
    ) throws -> Summary {
        let files = FileManager.default
        guard files.fileExists(atPath: source) else { throw Failure(description: "\(source): no database there") }
        guard !files.fileExists(atPath: destination) else {
            throw Failure(description: "\(destination) exists already; choose another file or remove it first")
        }
        let partial = destination + ".partial"
        try? files.removeItem(atPath: partial)
        do {
            let pages = try copyPages(from: source, to: partial, pagesPerStep: CInt(clamping: max(1, pagesPerStep)), progress: progress)
            try files.moveItem(atPath: partial, toPath: destination)
            let bytes = (try files.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.intValue ?? 0
            return Summary(pages: pages, bytes: bytes)
        } catch {
            try? files.removeItem(atPath: partial)
            if let failure = error as? Failure { throw failure }
            throw Failure(description: "backup of \(source) failed: \(error)")
        }
    }

    private static func copyPages(
        from source: String, to partial: String, pagesPerStep: CInt, progress: ((Int, Int) -> Void)?
    ) throws -> Int {
        var sourceConfiguration = Configuration()
        sourceConfiguration.busyMode = .timeout(10)
        sourceConfiguration.label = "tripshare.backup.source"
        // A pool, so the copy runs in a snapshot (a reader's transaction) and not on a writer.
        let from = try DatabasePool(path: source, configuration: sourceConfiguration)
        defer { try? from.close() }
        let to = try DatabaseQueue(path: partial)
        var pages = 0
        try from.backup(to: to, pagesPerStep: pagesPerStep) { step in
            pages = step.totalPageCount
            progress?(step.completedPageCount, step.totalPageCount)
        }
        try to.writeWithoutTransaction { db in
            // One self-contained file: restoring it is copying it.
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
            let check = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
            guard check == "ok" else { throw Failure(description: "the copy fails PRAGMA integrity_check: \(check)") }
        }
        try to.close()
        return pages
    }
}
