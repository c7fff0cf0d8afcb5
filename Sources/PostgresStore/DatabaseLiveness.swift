// Whether the database answers at all, asked when a statement has waited unusually long: a
// new connection runs `SELECT 1` within a short deadline. Any answer from the server, an error
// included ("too many connections"), means it is there and the slow statement is only slow;
// no answer (refused, reset, or silence past the deadline) means it is gone, and the pool is
// told so (ConnectionPool.databaseLost): the waiting requests fail at once and new ones fail
// fast until its back-off has passed. Statements that grow suspicious together share one
// check, and a verdict of "there" stands for a moment, so a slow database is asked once, not
// once per statement.

import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Checks that the database answers, on behalf of the statements of one store.
final class DatabaseLiveness: Sendable {
    /// What a check found.
    enum Verdict: Sendable, Equatable {
        /// The server answered.
        case there
        /// It did not; the reason says how.
        case gone(String)
    }

    /// The check's whole deadline: connecting and `SELECT 1`. A healthy database on a busy
    /// two-core machine took over 1.5 s to accept a connection; shorter deadlines called it gone.
    static let checkDeadline = TimeAmount.seconds(3)
    /// How long "there" stands before a slow statement asks again.
    static let verdictLifetime = TimeAmount.milliseconds(500)

    private struct State {
        var running: EventLoopFuture<Verdict>?
        var thereUntil: NIODeadline?
    }

    private let pool: ConnectionPool
    private let state = Mutex(State())

    init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// The verdict of a check: the one under way, a recent "there", or a new one.
    func confirm() -> EventLoopFuture<Verdict> {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let (check, started) = state.withLock { state -> (EventLoopFuture<Verdict>, Bool) in
            if let running = state.running { return (running, false) }
            if let until = state.thereUntil, NIODeadline.now() < until { return (loop.makeSucceededFuture(.there), false) }
            let check = run(on: loop)
            state.running = check
            return (check, true)
        }
        if started {
            check.whenComplete { [self] result in
                let verdict = (try? result.get()) ?? .gone("the check failed")
                self.state.withLock { state in
                    state.running = nil
                    state.thereUntil = verdict == .there ? .now() + Self.verdictLifetime : nil
                }
                if case .gone(let reason) = verdict { pool.databaseLost(reason) }
            }
        }
        return check
    }

    private func run(on loop: any EventLoop) -> EventLoopFuture<Verdict> {
        let verdict = loop.makePromise(of: Verdict.self)
        let started = NIODeadline.now()
        let timeout = loop.scheduleTask(in: Self.checkDeadline) {
            verdict.succeed(.gone("the database did not answer for \(Self.millisecondsSince(started)) ms"))
        }
        verdict.completeWithTask { [pool] in
            let connection: PostgresConnection
            do {
                connection = try await pool.connectForCheck(timeout: Self.checkDeadline)
            } catch {
                return DatabaseError.sqlState(error) != nil ? .there : .gone(DatabaseError.describe(error))
            }
            let outcome: Verdict
            do {
                let answer: EventLoopFuture<PostgresQueryResult> = connection.query("SELECT 1", logger: pool.logger)
                _ = try await answer.get()
                outcome = .there
            } catch {
                outcome = DatabaseError.sqlState(error) != nil ? .there : .gone(DatabaseError.describe(error))
            }
            // Closed before it is let go: a connection released while closing trips
            // PostgresNIO's check that every connection is closed first.
            try? await connection.close()
            return outcome
        }
        verdict.futureResult.whenComplete { _ in timeout.cancel() }
        return verdict.futureResult
    }

    private static func millisecondsSince(_ start: NIODeadline) -> Int64 {
        (NIODeadline.now() - start).nanoseconds / 1_000_000 + suspicionDelayMilliseconds
    }

    /// The statement waited this long before the check began.
    private static let suspicionDelayMilliseconds = PostgresConnection.suspicionDelay.nanoseconds / 1_000_000
}
