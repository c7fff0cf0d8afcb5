// Whether the database answers at all, asked when a statement or a connection attempt has
// waited unusually long: `SELECT 1` on a connection kept open for this check alone, within a
// short deadline. Any answer from the server, an error included, means it is there and the
// slow statement is only slow; no answer (refused, reset, or silence past the deadline) means
// it is gone, and the pool is told so (ConnectionPool.databaseLost): the waiting requests fail
// at once and new ones fail fast until its back-off has passed. Statements that grow
// suspicious together share one check, and a verdict of "there" stands for a moment, so a slow
// database is asked once, not once per statement.
//
// Why a kept connection ("busy" is not "gone"): a healthy PostgreSQL on a loaded two-core
// machine took over 1.5 s to accept a new connection (a process to start, authentication),
// while a query on an open connection is answered in milliseconds. A check that connected
// anew needed a deadline of seconds not to call a busy cluster gone; on the kept connection,
// a fraction of one is enough. A server's store opens that connection at start
// (keepConnectionOpen); a store that does not (the test suite's hundreds) opens it at its first
// check, allowing a new connection's time then, unless the database was just found gone. It is
// closed when a check finds no answer on it (the next check opens another), or when the store
// closes. It may itself have gone stale while idle (a restart, a network that forgot it): a
// check whose `SELECT 1` meets it broken asks once more on a new one before it decides.

import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Checks that the database answers, on behalf of the statements and connection attempts of
/// one store.
final class DatabaseLiveness: Sendable {
    /// What a check found.
    enum Verdict: Sendable, Equatable {
        /// The server answered.
        case there
        /// It did not; the reason says how.
        case gone(String)
    }

    /// How long "there" stands before a slow statement asks again.
    static let verdictLifetime = TimeAmount.milliseconds(500)

    private struct State {
        var running: EventLoopFuture<Verdict>?
        var thereUntil: NIODeadline?
        /// The connection kept for checks, once one has been opened.
        var connection: PostgresConnection?
        /// The opening of that connection under way, which every caller shares: two at once
        /// would replace (and close) the one a check had just begun to use.
        var opening: Task<PostgresConnection, any Error>?
        /// Whether the last check found the database gone.
        var lastGone = false
        /// How long the kept connection may take to open, once the store keeps one
        /// (``keepConnectionOpen(connectTimeout:)``).
        var keptConnectTimeout: Duration?
        var closed = false
        var lost: (@Sendable (String) -> Void)?
    }

    private let location: PostgresLocation
    /// When to ask and how long to wait for the answer.
    let timings: PostgresLivenessTimings
    private let logger: Logger
    private let state = Mutex(State())

    /// A check of the database at `location`.
    init(location: PostgresLocation, timings: PostgresLivenessTimings, logger: Logger) {
        self.location = location
        self.timings = timings
        self.logger = logger
    }

    /// Calls `lost` with the reason each time a check finds the database gone.
    func whenGone(_ lost: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.lost = lost }
    }

    /// The verdict of a check: the one under way, a recent "there", or a new one.
    func confirm() -> EventLoopFuture<Verdict> {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let (check, started) = state.withLock { state -> (EventLoopFuture<Verdict>, Bool) in
            if let running = state.running { return (running, false) }
            if let until = state.thereUntil, NIODeadline.now() < until { return (loop.makeSucceededFuture(.there), false) }
            let connecting = !state.lastGone && (state.connection?.isClosed ?? true)
            let check = run(on: loop, deadline: TimeAmount(connecting ? timings.connectingCheck : timings.check))
            state.running = check
            return (check, true)
        }
        if started {
            check.whenComplete { [self] result in
                let verdict = (try? result.get()) ?? .gone("the check failed")
                let lost = self.state.withLock { state in
                    state.running = nil
                    state.thereUntil = verdict == .there ? .now() + Self.verdictLifetime : nil
                    state.lastGone = verdict != .there
                    return state.lost
                }
                if case .gone(let reason) = verdict { lost?(reason) }
            }
        }
        return check
    }

    /// Asks whether the database answers each time `pending` has waited another
    /// ``PostgresLivenessTimings/suspicion``, until it completes; calls `gone` once a check finds the database
    /// silent. A "there" is not the end of it: a check that began just before the database
    /// froze says "there", and a statement it let wait on would wait its whole deadline.
    func watch<Value: Sendable>(_ pending: EventLoopFuture<Value>, gone: @escaping @Sendable (String) -> Void) {
        let next = pending.eventLoop.scheduleTask(in: TimeAmount(timings.suspicion)) { [self] in
            confirm().whenSuccess { verdict in
                switch verdict {
                case .gone(let reason): gone(reason)
                case .there: self.watch(pending, gone: gone)
                }
            }
        }
        pending.whenComplete { _ in next.cancel() }
    }

    /// Opens the connection checks use now, in the background, within `connectTimeout`
    /// (a check then never waits for one to open).
    func keepConnectionOpen(connectTimeout: Duration) {
        state.withLock { $0.keptConnectTimeout = connectTimeout }
        Task { _ = try? await keptConnection(connectTimeout: connectTimeout) }
    }

    /// The store reached the database again (a new connection opened): a store that keeps a
    /// connection for checks reopens it now if it was lost, so that the next outage's check
    /// finds one open instead of waiting a new connection's time.
    func databaseAnswered() {
        let timeout = state.withLock { state -> Duration? in
            guard let timeout = state.keptConnectTimeout, !state.closed, state.opening == nil else { return nil }
            if let connection = state.connection, !connection.isClosed { return nil }
            return timeout
        }
        if let timeout { Task { _ = try? await keptConnection(connectTimeout: timeout) } }
    }

    /// Closes the kept connection; later checks find the database gone.
    func close() async {
        let connection = state.withLock { state in
            state.closed = true
            return state.connection.take()
        }
        try? await connection?.close()
    }

    /// Runs a check that gives up after `deadline` (called with the state locked: it must not
    /// lock it itself before it returns).
    private func run(on loop: any EventLoop, deadline: TimeAmount) -> EventLoopFuture<Verdict> {
        let verdict = loop.makePromise(of: Verdict.self)
        let started = NIODeadline.now()
        let timeout = loop.scheduleTask(in: deadline) { [self] in
            verdict.succeed(.gone("the database did not answer for \(millisecondsSince(started)) ms"))
            // Silent: the kept connection is of no more use.
            dropConnection()
        }
        verdict.completeWithTask { [self] in
            // A kept connection that broke while it sat idle (a restart, a network that forgot
            // it) says nothing of the database now: the check asks once more on a new one,
            // within the same deadline.
            var reopened = false
            while true {
                let connection: PostgresConnection
                do {
                    connection = try await keptConnection(connectTimeout: .nanoseconds(deadline.nanoseconds))
                } catch {
                    return DatabaseError.sqlState(error) != nil ? .there : .gone(DatabaseError.describe(error))
                }
                do {
                    let answer: EventLoopFuture<PostgresQueryResult> = connection.query("SELECT 1", logger: logger)
                    _ = try await answer.get()
                    return .there
                } catch {
                    if DatabaseError.sqlState(error) != nil { return .there }
                    dropConnection()
                    if reopened || !DatabaseError.isBrokenConnection(error) { return .gone(DatabaseError.describe(error)) }
                    reopened = true
                }
            }
        }
        verdict.futureResult.whenComplete { _ in timeout.cancel() }
        return verdict.futureResult
    }

    /// The connection kept for checks, opened now when there is none (or it closed).
    private func keptConnection(connectTimeout: Duration) async throws -> PostgresConnection {
        enum Found {
            case kept(PostgresConnection)
            case opening(Task<PostgresConnection, any Error>)
        }
        let found = state.withLock { state -> Found in
            if let connection = state.connection, !connection.isClosed { return .kept(connection) }
            if let opening = state.opening { return .opening(opening) }
            let opening = Task { try await openKeptConnection(connectTimeout: connectTimeout) }
            state.opening = opening
            return .opening(opening)
        }
        switch found {
        case .kept(let connection): return connection
        case .opening(let opening): return try await opening.value
        }
    }

    /// Opens the kept connection (``keptConnection(connectTimeout:)`` makes sure only one
    /// opening runs at a time).
    private func openKeptConnection(connectTimeout: Duration) async throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(),
                configuration: location.connectionConfiguration(connectTimeout: connectTimeout), id: 0,
                logger: logger)
        } catch {
            state.withLock { $0.opening = nil }
            throw error
        }
        let (replaced, keep) = state.withLock { state -> (PostgresConnection?, Bool) in
            state.opening = nil
            if state.closed { return (nil, false) }
            defer { state.connection = connection }
            return (state.connection.take(), true)
        }
        // Closed before they are let go: PostgresNIO checks that every connection is.
        try? await replaced?.close()
        if !keep { try? await connection.close() }
        return connection
    }

    /// Closes the kept connection (it did not answer) so that the next check opens another.
    private func dropConnection() {
        guard let connection = state.withLock({ $0.connection.take() }) else { return }
        connection.closeHeld()
    }

    private func millisecondsSince(_ start: NIODeadline) -> Int64 {
        (NIODeadline.now() - start).nanoseconds / 1_000_000 + TimeAmount(timings.suspicion).nanoseconds / 1_000_000
    }
}
