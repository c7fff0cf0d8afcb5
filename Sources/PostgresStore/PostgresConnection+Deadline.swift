import NIOCore
import PostgresNIO

// A statement that gets no answer soon makes the store ask whether the database answers at all
// (DatabaseLiveness: `SELECT 1` on a connection kept for it); if it does not, the statement's
// connection is closed and the statement fails as on a lost connection, within 2 s of the
// database going away on a server (PostgresLivenessTimings; issue 29: writes fail within 2 s,
// /readyz within 1 s). If it does,
// the statement may wait on, up to `answerDeadline`. Without these a database that vanished
// without closing its connections (a network failure, a frozen machine; or a connection that
// broke while it was closing, seen to leave a query waiting) would hold the write lane, and
// every write queued behind it, for as long as TCP takes to give up.

extension PostgresConnection {
    /// Far longer than any statement of ours runs, waits for other processes' row locks
    /// included.
    static let answerDeadline = TimeAmount.seconds(10)
    /// `result`, or ``NoAnswer`` (and the connection closed) once ``answerDeadline`` has
    /// passed without it, or sooner when `liveness` finds the database gone meanwhile.
    func withinDeadline<Value: Sendable>(_ result: EventLoopFuture<Value>, liveness: DatabaseLiveness?) -> EventLoopFuture<Value> {
        let answer = eventLoop.makePromise(of: Value.self)
        result.cascade(to: answer)
        let deadline = eventLoop.scheduleTask(in: Self.answerDeadline) { [self] in
            answer.fail(NoAnswer(reason: "the database did not answer within \(Self.answerDeadline.nanoseconds / 1_000_000_000) s"))
            self.closeHeld()
        }
        liveness?.watch(answer.futureResult) { [self] reason in
            answer.fail(NoAnswer(reason: reason))
            self.closeHeld()
        }
        answer.futureResult.whenComplete { _ in deadline.cancel() }
        return answer.futureResult
    }
}

/// The database did not answer a statement: within
/// ``PostgresNIO/PostgresConnection/answerDeadline``, or at all once asked by
/// ``DatabaseLiveness``. The connection is closed and counts as lost.
struct NoAnswer: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

extension PostgresConnection {
    /// Closes the connection, keeping it alive until it has closed: PostgresNIO traps on a
    /// connection let go while it closes.
    func closeHeld() {
        close().whenComplete { _ in withExtendedLifetime(self) {} }
    }
}
