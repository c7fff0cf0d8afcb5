import NIOCore
import PostgresNIO

// A statement that gets no answer for `answerDeadline` takes its connection for lost: the
// connection is closed and the statement fails as on a lost connection. Without it a database
// that vanished without closing its connections (a network failure; or a connection that
// broke while it was closing, seen to leave a query waiting) would hold the write lane, and
// every write and /readyz probe queued behind it, for ever.

extension PostgresConnection {
    /// Far longer than any statement of ours runs, waits for other processes' row locks
    /// included.
    static let answerDeadline = TimeAmount.seconds(10)

    /// `result`, or ``NoAnswer`` (and the connection closed) once ``answerDeadline`` has
    /// passed without it.
    func withinDeadline<Value: Sendable>(_ result: EventLoopFuture<Value>) -> EventLoopFuture<Value> {
        let answer = eventLoop.makePromise(of: Value.self)
        result.cascade(to: answer)
        let deadline = eventLoop.scheduleTask(in: Self.answerDeadline) { [self] in
            answer.fail(NoAnswer())
            _ = self.close() as EventLoopFuture<Void>
        }
        answer.futureResult.whenComplete { _ in deadline.cancel() }
        return answer.futureResult
    }
}

/// The database did not answer a statement within
/// ``PostgresNIO/PostgresConnection/answerDeadline``: the connection is closed and counts as
/// lost.
struct NoAnswer: Error, CustomStringConvertible {
    var description: String { "the database did not answer within \(PostgresConnection.answerDeadline.nanoseconds / 1_000_000_000) s" }
}
