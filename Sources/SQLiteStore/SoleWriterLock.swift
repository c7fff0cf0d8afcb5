import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock on the file `DATABASE-lock` beside an SQLite database, held while a
/// server's store is open: the server then knows every commit to the file
/// (``CommittedRevisions``), and a second server on the same file would break that, so it is
/// refused. SQLite serves one server; several share PostgreSQL (docs/operations.md).
///
/// `flock` on a file of its own: a lock on the database file itself would share SQLite's
/// POSIX locks, which closing any descriptor of that file drops. The kernel releases the lock
/// when the process ends, however it ends, so a killed server leaves no stale lock.
final class SoleWriterLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of the database at `databasePath`, or throws ``DatabaseInUse`` when
    /// another open store holds it.
    init(databasePath: String) throws {
        let path = databasePath + "-lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DatabaseInUse(description: "cannot open \(path) to lock the database: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK {
                throw DatabaseInUse(
                    description: "the database \(databasePath) is in use by another tripshare server (its lock, \(path), is held); "
                        + "SQLite serves one server: to run several, give them a PostgreSQL database (docs/operations.md)")
            }
            throw DatabaseInUse(description: "cannot lock \(path): \(String(cString: strerror(reason)))")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}

/// An SQLite database that a server cannot open as its only writer.
public struct DatabaseInUse: Error, CustomStringConvertible {
    public let description: String
}
