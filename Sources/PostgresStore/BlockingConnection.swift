import Logging
import NIOCore
import PostgresNIO

/// A connection used from a thread that may block: a store transaction's body is synchronous
/// (``TripStore/StoreTransaction`` methods are `throws`, not `async`), so its statements wait
/// here for their results. Only the store's own threads (``WriteLane``, the reader threads)
/// ever call it, never an event loop: the connection's I/O runs on NIO's event loops
/// meanwhile, and `wait()` would trap on one of them.
///
/// Every statement waits at most ``PostgresNIO/PostgresConnection/answerDeadline`` for its
/// answer, and less when `liveness` finds the database gone (see there why).
struct BlockingConnection {
    let connection: PostgresConnection
    let logger: Logger
    let liveness: DatabaseLiveness?

    private func wait<Value: Sendable>(_ result: EventLoopFuture<Value>) throws -> Value {
        try connection.withinDeadline(result, liveness: liveness).wait()
    }

    /// Runs `query` and returns its rows.
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try wait(connection.query(query, logger: logger)).rows
    }

    /// Runs a prepared statement (prepared on this connection on first use) and returns its
    /// rows. postgres-nio executes prepared statements from async code only: a task on the
    /// event loops runs it, and this thread waits for the task's result.
    func rows<Statement: RowStatement>(_ statement: Statement) throws -> [PostgresRow] {
        let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
        promise.completeWithTask { [connection, logger] in
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
        return try wait(promise.futureResult)
    }

    /// Runs `query` and returns its command tag's row count (rows inserted, updated, deleted).
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try wait(connection.query(query, logger: logger)).metadata.rows ?? 0
    }

    /// Runs `query` and returns its command tag (`COMMIT`, or `ROLLBACK` when the server
    /// rolled an aborted transaction back instead).
    func commandTag(_ query: PostgresQuery) throws -> String {
        try wait(connection.query(query, logger: logger)).metadata.command
    }
}

/// A row another transaction holds locked (``WriteBatch`` reads its rows with `SKIP LOCKED`):
/// the write is run again a little later instead of waiting for the lock.
struct RowLocked: Error {
    /// The row, for the message when the write gives up.
    var row: String
}
