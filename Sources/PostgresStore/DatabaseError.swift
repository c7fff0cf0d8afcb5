import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import TripModel

/// How the store turns what postgres-nio throws into the API's errors: a server that cannot
/// be reached (or that went away) is UNAVAILABLE, so the API answers 503; anything else the
/// server refused is INTERNAL with its SQLSTATE and message (never the query's arguments).
enum DatabaseError {
    /// SQLSTATEs that mean "run it again": the write did nothing and may succeed later
    /// (a lock another process holds, a deadlock PostgreSQL broke, a serialization conflict,
    /// a unique key another process inserted first, which the rerun then sees).
    static let retryableStates: Set<String> = ["40P01", "40001", "55P03", "23505"]

    /// The SQLSTATE of a server error, if `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Whether `error` says the transaction should simply be tried again.
    static func isRetryable(_ error: any Error) -> Bool {
        sqlState(error).map(retryableStates.contains) ?? false
    }

    /// Whether `error` says the connection is gone or the server is shutting down or
    /// unreachable: connection exceptions (08), operator intervention (57P), or a transport error.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let fleet = error as? StatusError { return fleet.code == .unavailable }
        if error is NoAnswer { return true }
        if let state = sqlState(error) { return state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" }
        if let psql = error as? PSQLError {
            switch psql.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .messageDecodingFailure, .unexpectedBackendMessage:
                return true
            default:
                return false
            }
        }
        return error is ChannelError || error is IOError
    }

    /// Whether `error` says this connection broke (closed, reset, terminated) rather than that
    /// the database was found silent (``NoAnswer``) or could not be reached (a StatusError from
    /// the pool): a fresh connection may well succeed where this one failed.
    static func isBrokenConnection(_ error: any Error) -> Bool {
        isConnectionLoss(error) && !(error is StatusError) && !(error is NoAnswer)
    }

    /// UNAVAILABLE: the database at `location` cannot be used, because of `error`.
    static func unavailable(_ location: PostgresLocation, _ error: any Error) -> StatusError {
        unavailable(location, reason: describe(error))
    }

    /// UNAVAILABLE with a reason in words.
    static func unavailable(_ location: PostgresLocation, reason: String) -> StatusError {
        StatusError(.unavailable, "the database \(location) is unavailable: \(reason); retry later")
    }

    /// `error` as the store throws it: StatusErrors pass through; a lost connection or a
    /// storage failure is UNAVAILABLE; any other server error is INTERNAL with its code and
    /// message.
    static func mapped(_ error: any Error, _ location: PostgresLocation) -> any Error {
        if error is StatusError { return error }
        if isConnectionLoss(error) { return unavailable(location, error) }
        if let failure = storageFailure(error) { return failure }
        if error is PSQLError { return StatusError(.internal, "the database refused a statement: \(describe(error))") }
        return error
    }

    /// UNAVAILABLE for a server error that is the storage's fault rather than the request's,
    /// saying what happened (as the SQLite store does): the database's disk is full, it ran
    /// out of memory or hit a limit (class 53), an I/O or system error (class 58), it is a
    /// read-only standby (25006), or its files are damaged (XX001, XX002). Nil for anything
    /// else.
    static func storageFailure(_ error: any Error) -> StatusError? {
        guard let state = sqlState(error) else { return nil }
        let detail = describe(error)
        let message: String
        switch state {
        case "53100": message = "the database's disk is full (\(detail)); writes succeed again once space is freed"
        case "53200": message = "the database ran out of memory (\(detail))"
        case _ where state.hasPrefix("53"): message = "the database ran out of a resource (\(detail))"
        case _ where state.hasPrefix("58"): message = "the database had an I/O or system error (\(detail))"
        case "25006": message = "the database cannot be written: it is read-only, a standby perhaps (\(detail))"
        case "XX001", "XX002": message = "the database's files are damaged (\(detail)); restore it from a backup"
        default: return nil
        }
        return StatusError(.unavailable, message)
    }

    /// A short description: the server's SQLSTATE and message, or the client's error code.
    static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let info = psql.serverInfo, let message = info[.message] {
                return "\(message) (SQLSTATE \(info[.sqlState] ?? "?"))"
            }
            if let underlying = psql.underlying { return describe(underlying) }
            return "\(psql.code)"
        }
        if let connection = error as? NIOConnectionError {
            if let failure = connection.connectionErrors.first { return describe(failure.error) }
            if let lookup = connection.dnsAError ?? connection.dnsAAAAError { return "cannot resolve \(connection.host): \(lookup)" }
        }
        // The system's words for errno (say, "Connection refused"), not NIO's full description.
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }
}
