// The store's connections to PostgreSQL. A request borrows an idle connection or opens one
// (up to a limit; beyond it, it waits its turn). When the server cannot be reached, the pool
// says so at once with UNAVAILABLE and does not try again before a back-off delay has passed
// (doubling from 100 ms to 5 s): requests answer 503 quickly instead of piling up behind
// connection attempts, and the first request (or /readyz probe) after the delay reconnects,
// so the server recovers by itself when the database is back. Each failed attempt is
// recorded in the store's health, so /readyz fails at once; the next write that commits
// (or /readyz's probe write) records the recovery. A database that stops answering without
// closing its connections is found by DatabaseLiveness, which tells the pool
// (databaseLost): it backs off and fails its waiting requests as if a connection attempt had
// failed. A connection attempt may take up to 5 s (a healthy database on a loaded machine was
// seen to take over 1.5 s), but one that has not succeeded after DatabaseLiveness's suspicion
// delay is given up as soon as the liveness check finds the database silent: a database that
// accepts connections but never answers (a frozen machine) must not hold the requests that
// wait for it.
// A connection found lost (it broke under a statement) says that the others may have gone the
// same way unnoticed: a database restart, a network or NAT that forgot idle connections, an
// administrator's pg_terminate_backend. So every idle connection not used since the loss was
// found is dropped with it (releaseLost), and the requests that follow open fresh ones instead
// of failing, one stale connection after another.

import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TripModel
import TripStore

/// The connections of one store, with the back-off described in the file comment.
final class ConnectionPool: Sendable {
    /// A connection back in the pool, and when it was last used (released).
    struct Idle {
        let connection: PostgresConnection
        let since: ContinuousClock.Instant
    }

    struct State {
        var idle: [Idle] = []
        var open = 0
        var waiters: [CheckedContinuation<PostgresConnection, any Error>] = []
        /// No connection attempt before this instant (after a failed one).
        var retryAfter: ContinuousClock.Instant?
        var backoff = ConnectionPool.firstBackoff
        /// Why the last attempt failed, while backing off.
        var lastFailure: String?
        var closed = false
        var nextID = 1
    }

    static let firstBackoff = Duration.milliseconds(100)
    static let longestBackoff = Duration.seconds(5)

    let location: PostgresLocation
    let maximumConnections: Int
    let connectTimeout: Duration
    let logger: Logger
    let health: StoreHealth
    /// Asked when a connection attempt takes long; it tells the pool when the database is gone.
    let liveness: DatabaseLiveness
    private let state = Mutex(State())

    init(
        location: PostgresLocation, maximumConnections: Int, connectTimeout: Duration = .seconds(5), health: StoreHealth,
        liveness: DatabaseLiveness, logger: Logger
    ) {
        self.location = location
        self.maximumConnections = maximumConnections
        self.connectTimeout = connectTimeout
        self.health = health
        self.liveness = liveness
        self.logger = logger
        liveness.whenGone { [weak self] reason in self?.databaseLost(reason) }
    }

    /// Opens a connection outside the pool (the notification listener keeps one for itself).
    func connectDedicated() async throws -> PostgresConnection {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        do {
            return try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(),
                configuration: location.connectionConfiguration(connectTimeout: connectTimeout), id: id, logger: logger)
        } catch {
            let failure = DatabaseError.unavailable(location, error)
            health.recordFailure(failure)
            throw failure
        }
    }

    /// Runs `body` with a connection of the pool and returns the connection afterwards
    /// (closing it when `body` left it broken).
    func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            if DatabaseError.isConnectionLoss(error) {
                releaseLost(connection, foundAt: .now)
            } else {
                release(connection)
            }
            throw error
        }
    }

    /// An idle connection, a new one, or the next one released; UNAVAILABLE while the server
    /// cannot be reached.
    func lease() async throws -> PostgresConnection {
        enum Step {
            case use(PostgresConnection)
            case connect(Int)
            case wait
            case fail(any Error)
        }
        let step = state.withLock { state -> Step in
            if state.closed { return .fail(StatusError(.unavailable, "the store is closed")) }
            while let connection = state.idle.popLast()?.connection {
                if !connection.isClosed { return .use(connection) }
                state.open -= 1
            }
            if let retryAfter = state.retryAfter, ContinuousClock.now < retryAfter {
                return .fail(DatabaseError.unavailable(location, reason: state.lastFailure ?? "it did not answer"))
            }
            if state.open < maximumConnections {
                state.open += 1
                defer { state.nextID += 1 }
                return .connect(state.nextID)
            }
            return .wait
        }
        switch step {
        case .use(let connection): return connection
        case .fail(let error): throw error
        case .connect(let id): return try await connect(id: id)
        case .wait:
            return try await withCheckedThrowingContinuation { continuation in
                // A connection may have come back since the first look.
                let idle = state.withLock { state -> PostgresConnection? in
                    if let connection = state.idle.popLast()?.connection { return connection }
                    state.waiters.append(continuation)
                    return nil
                }
                if let idle { continuation.resume(returning: idle) }
            }
        }
    }

    /// The database stopped answering (``DatabaseLiveness`` found out): as after a failed
    /// connection attempt, requests waiting for a connection fail now and new ones fail at once
    /// until the back-off has passed; the failure is recorded in the store's health.
    func databaseLost(_ reason: String) {
        backOff(after: DatabaseError.unavailable(location, reason: reason), attemptFailed: false, log: "the database stopped answering")
        // The idle connections go to the same silent server: a request handed one would wait
        // for the liveness check again.
        for stale in dropIdle(usedBefore: nil) { stale.connection.closeHeld() }
    }

    /// Takes the idle connections last used before `instant` (every one when nil) out of the
    /// pool, giving back their places; the caller closes them.
    private func dropIdle(usedBefore instant: ContinuousClock.Instant?) -> [Idle] {
        state.withLock { state in
            var kept: [Idle] = []
            var dropped: [Idle] = []
            for idle in state.idle {
                if let instant, idle.since >= instant { kept.append(idle) } else { dropped.append(idle) }
            }
            state.idle = kept
            state.open -= dropped.count
            return dropped
        }
    }

    /// Records `failure` in the store's health, backs off, and fails the requests waiting for
    /// a connection: the server is gone for them too, so they answer UNAVAILABLE now rather
    /// than wait for connections that are likely broken as well. `attemptFailed`: a connection
    /// attempt failed, and gives back its place.
    private func backOff(after failure: StatusError, attemptFailed: Bool, log message: Logger.Message) {
        health.recordFailure(failure)
        let (waiters, firstFailure) = state.withLock { state in
            if attemptFailed { state.open -= 1 }
            let first = state.lastFailure == nil
            state.lastFailure = failure.message
            state.retryAfter = ContinuousClock.now + state.backoff
            state.backoff = min(state.backoff * 2, Self.longestBackoff)
            defer { state.waiters = [] }
            return (state.waiters, first)
        }
        if firstFailure { logger.error(message, metadata: ["error": "\(failure.message)"]) }
        for waiter in waiters { waiter.resume(throwing: failure) }
    }

    private func connect(id: Int) async throws -> PostgresConnection {
        do {
            let connection = try await openWatched(id: id)
            let recovered = state.withLock { state -> Bool in
                defer {
                    state.retryAfter = nil
                    state.lastFailure = nil
                    state.backoff = Self.firstBackoff
                }
                return state.lastFailure != nil
            }
            if recovered { logger.notice("reconnected to the database", metadata: ["database": "\(location)"]) }
            liveness.databaseAnswered()
            return connection
        } catch {
            let failure = DatabaseError.unavailable(location, error)
            backOff(after: failure, attemptFailed: true, log: "the database is unreachable")
            throw failure
        }
    }

    /// A new connection, within ``connectTimeout`` (which bounds only reaching the server: a
    /// server that accepts and never answers would hold the attempt for ever); an attempt
    /// still under way after the liveness check's suspicion delay fails as soon as a check
    /// finds the database silent.
    private func openWatched(id: Int) async throws -> PostgresConnection {
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let attempt: EventLoopFuture<PostgresConnection> = PostgresConnection.connect(
            on: loop, configuration: location.connectionConfiguration(connectTimeout: connectTimeout), id: id, logger: logger)
        let outcome = loop.makePromise(of: PostgresConnection.self)
        liveness.watch(outcome.futureResult) { reason in outcome.fail(NoAnswer(reason: reason)) }
        attempt.whenComplete { result in outcome.completeWith(result) }
        // An attempt given up on that connects after all is closed unused.
        attempt.whenSuccess { connection in
            outcome.futureResult.whenFailure { _ in
                connection.closeHeld()
            }
        }
        return try await outcome.futureResult.get()
    }

    /// Returns a connection: to a waiting request, or to the idle list; a broken or closed one
    /// is closed and forgotten.
    func release(_ connection: PostgresConnection, broken: Bool = false) {
        let unusable = broken || connection.isClosed
        let waiter = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
            if unusable || state.closed {
                state.open -= 1
                return nil
            }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.idle.append(Idle(connection: connection, since: .now))
            return nil
        }
        if unusable || waiter == nil && state.withLock({ $0.closed }) {
            connection.closeHeld()
        }
        if let waiter {
            waiter.resume(returning: connection)
        } else if unusable {
            // A request may be waiting for a connection this one's place now allows.
            startConnectingForWaiter()
        }
    }

    /// Returns a connection found lost at `instant`, and drops the idle connections not used
    /// since: they went through the same spell (see the file comment), and a request handed
    /// one would fail as this one's did. Those used since have answered after it.
    func releaseLost(_ connection: PostgresConnection, foundAt instant: ContinuousClock.Instant) {
        let stale = dropIdle(usedBefore: instant)
        if !stale.isEmpty {
            logger.notice(
                "a connection to the database was lost: dropping the idle ones that may be lost too",
                metadata: ["dropped": "\(stale.count)"])
        }
        for idle in stale { idle.connection.closeHeld() }
        release(connection, broken: true)
    }

    private func startConnectingForWaiter() {
        let id = state.withLock { state -> Int? in
            guard !state.waiters.isEmpty, state.open < maximumConnections, !state.closed else { return nil }
            state.open += 1
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        Task {
            guard let connection = try? await self.connect(id: id) else { return }
            self.release(connection)
        }
    }

    /// Closes every idle connection; later leases fail.
    func close() async {
        let idle = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for idle in idle { try? await idle.connection.close() }
    }
}
