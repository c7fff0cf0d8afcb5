import GRDB
import TripModel

/// The API's answer to SQLite errors that are the storage's fault rather than the request's:
/// a full disk, an I/O error, a read-only or damaged file. Each becomes `UNAVAILABLE` (503)
/// with a message that says what happened (SQLite's own words included, the file's path left
/// out: clients read it too), so an operator can act on it and a client knows to retry later;
/// anything else is left as it is.
enum StorageFailure {
    /// `error` as an `UNAVAILABLE` ``StatusError`` when it is a storage failure; nil otherwise.
    static func unavailable(_ error: any Error) -> StatusError? {
        guard let error = error as? DatabaseError else { return nil }
        let detail = "SQLite: \(error.message ?? "error \(error.extendedResultCode.rawValue)")"
        switch error.resultCode {
        case .SQLITE_FULL:
            return StatusError(.unavailable, "the database's disk is full (\(detail)); writes succeed again once space is freed")
        case .SQLITE_IOERR:
            return StatusError(.unavailable, "the database had an I/O error, \(ioErrorName(error.extendedResultCode)) (\(detail))")
        case .SQLITE_READONLY:
            return StatusError(.unavailable, "the database cannot be written (\(detail))")
        case .SQLITE_CANTOPEN:
            return StatusError(.unavailable, "the database file cannot be opened (\(detail))")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return StatusError(.unavailable, "the database file is damaged (\(detail)); restore it from a backup")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StatusError(.unavailable, "the database is locked by another connection (\(detail))")
        case .SQLITE_NOMEM:
            return StatusError(.unavailable, "the database ran out of memory (\(detail))")
        default:
            return nil
        }
    }

    /// The name of an extended I/O error code (sqlite3.h), which says which operation failed.
    static func ioErrorName(_ code: ResultCode) -> String {
        let names = [
            1: "READ", 2: "SHORT_READ", 3: "WRITE", 4: "FSYNC", 5: "DIR_FSYNC", 6: "TRUNCATE", 7: "FSTAT",
            8: "UNLOCK", 9: "RDLOCK", 10: "DELETE", 12: "NOMEM", 13: "ACCESS", 14: "CHECKRESERVEDLOCK",
            15: "LOCK", 16: "CLOSE", 18: "SHMOPEN", 19: "SHMSIZE", 20: "SHMLOCK", 21: "SHMMAP", 22: "SEEK",
            24: "MMAP", 32: "DATA", 33: "CORRUPTFS",
        ]
        let extended = Int(code.rawValue >> 8)
        return names[extended].map { "SQLITE_IOERR_\($0)" } ?? "SQLITE_IOERR (extended code \(code.rawValue))"
    }
}
