// The store's writes, one transaction per batch of writes ("group commit", as in the SQLite
// store): the writes that arrive while a transaction runs wait, and the next transaction
// runs all of them, one after another, then logs their events and commits once. A write is
// answered only after the commit.
//
// Why batches pay on PostgreSQL: the event log's ids are handed out under a lock held until
// the commit (EventLog), so commits that log events run one at a time across every process;
// each commit also waits for its WAL flush. Sharing a transaction divides both among the
// writes of a batch.
//
// The writes of a batch share the transaction without savepoints (each would cost two more
// round trips per write). A write that fails before changing any row (having at most locked
// its vehicle: WriteBatch.writeNeedsRollback) just has its buffered events taken back. One
// that fails after (or whose statement failed, which aborts the transaction) makes the batch
// roll back and start again without it: the writes before it run again (a write's body is a
// function of what it reads, so it does the same again).
// A write that met a row another transaction holds (RowLocked), or that PostgreSQL refused
// for a conflict with another process (a deadlock, a unique key inserted meanwhile), is run
// again in a later batch after a short pause, a bounded number of times.
//
// A connection lost before the batch's COMMIT was sent cannot have committed anything
// (PostgreSQL rolls back what a lost connection leaves): its writes are run once more, on a
// fresh connection (the pool drops the idle ones that went stale with it), instead of failing
// because the connection had gone stale while idle. A connection lost during the COMMIT may
// have committed: those writes fail, saying so. So do writes found lost a second time, and
// those on a database found silent (NoAnswer: a new connection would only wait as long).
//
// Every write's outcome feeds the store's health (/readyz): a commit says writes work; a write
// that failed because the database is unreachable, its connection broke, or the database
// could not store it (a full disk, a read-only standby: DatabaseError.storageFailure) says
// they do not. A storage failure fails the whole batch at once: it is not the write's fault,
// and the others would only meet it again one by one.
//
// The batches run on a thread of the lane's own, which blocks on each statement's result
// (BlockingConnection); the connection's I/O stays on NIO's event loops.

import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import TripModel
import TripStore

/// Runs the store's write transactions in batches on one connection and thread.
final class WriteLane: Sendable {
    typealias Body = @Sendable (PostgresTransaction) throws -> Void

    /// A queued write.
    struct Job: Sendable {
        let body: Body
        /// The vehicle the body reads first, if known: locked ahead with the batch's others.
        let vehicle: VehicleKey?
        let complete: @Sendable (Result<Void, any Error>) -> Void
        /// Times it was put back because of another process's locks or conflicts.
        var retries = 0
        /// Whether it was already put back once because its connection broke before the commit.
        var rerunAfterLoss = false
    }

    private struct Queue {
        var jobs: [Job] = []
        var draining = false
    }

    /// At most this many writes share a transaction.
    static let maximumBatch = 128
    /// A write meeting other processes' locks or conflicts is tried this many times more.
    static let maximumRetries = 40

    private let pool: ConnectionPool
    private let liveness: DatabaseLiveness
    private let caches: DecodedRowCaches
    private let health: StoreHealth
    private let channel: String
    private let instance: String
    private let logger: Logger
    private let thread: NIOThreadPool
    private let queue = Mutex(Queue())

    init(
        pool: ConnectionPool, liveness: DatabaseLiveness, caches: DecodedRowCaches, health: StoreHealth, channel: String, instance: String,
        logger: Logger
    ) {
        self.pool = pool
        self.liveness = liveness
        self.caches = caches
        self.health = health
        self.channel = channel
        self.instance = instance
        self.logger = logger
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
    }

    /// Runs `body` in a write transaction and returns once it has committed; records the
    /// outcome in the store's health. `vehicle` is the vehicle `body` reads first, if known.
    func write(readingVehicle vehicle: VehicleKey? = nil, _ body: @escaping Body) async throws {
        let health = health
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let job = Job(body: body, vehicle: vehicle) { result in
                switch result {
                case .success: health.recordSuccess()
                case .failure(let error as StatusError) where error.code == .unavailable: health.recordFailure(error)
                case .failure: break
                }
                continuation.resume(with: result)
            }
            enqueue([job], atFront: false)
        }
    }

    private func enqueue(_ jobs: [Job], atFront: Bool) {
        let startDrain = queue.withLock { queue in
            if atFront { queue.jobs.insert(contentsOf: jobs, at: 0) } else { queue.jobs.append(contentsOf: jobs) }
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        if startDrain { Task { await drain() } }
    }

    /// Takes the next batch; stops draining (atomically) when there is none.
    private func nextBatch() -> [Job] {
        queue.withLock { queue in
            let batch = Array(queue.jobs.prefix(Self.maximumBatch))
            queue.jobs.removeFirst(batch.count)
            if batch.isEmpty { queue.draining = false }
            return batch
        }
    }

    /// Borrows a connection and runs batches on the lane's thread until the queue is empty.
    private func drain() async {
        let connection: PostgresConnection
        do {
            connection = try await pool.lease()
        } catch {
            // The database is unreachable: everything waiting fails now (503), not later.
            while case let jobs = nextBatch(), !jobs.isEmpty { for job in jobs { job.complete(.failure(error)) } }
            return
        }
        let blocking = BlockingConnection(connection: connection, logger: logger, liveness: liveness)
        let lost: ContinuousClock.Instant?
        do {
            lost = try await thread.runIfActive { self.runBatches(blocking) }
            if let lost { pool.releaseLost(connection, foundAt: lost) } else { pool.release(connection) }
        } catch {
            // The lane's thread has stopped (the store is closing).
            while case let jobs = nextBatch(), !jobs.isEmpty { for job in jobs { job.complete(.failure(error)) } }
            pool.release(connection, broken: true)
            return
        }
        // A lost connection ends the loop with writes possibly still queued: go on with another.
        if lost != nil,
            queue.withLock({ queue in
                if queue.jobs.isEmpty {
                    queue.draining = false
                    return false
                }
                return true
            })
        {
            await drain()
        }
    }

    /// Runs batches until the queue is empty (nil) or the connection broke (when it was found
    /// lost; the queue is then still marked draining).
    private func runBatches(_ connection: BlockingConnection) -> ContinuousClock.Instant? {
        var busy = false
        while true {
            // While writes keep coming, a few more share the next transaction if it waits a
            // moment: commits that log events take turns across every process (EventLog), so
            // fewer, larger batches commit more writes per second (measured: 6 writes per
            // commit instead of 3, and a fifth more updates per second, two servers).
            if busy, queue.withLock({ $0.jobs.count }) < Self.lingerBelow { Thread.sleep(forTimeInterval: Self.lingerSeconds) }
            let jobs = nextBatch()
            if jobs.isEmpty { return nil }
            busy = true
            if let lost = run(jobs, connection) { return lost }
        }
    }

    /// How long the next batch waits for company while writes keep coming: a millisecond,
    /// a fraction of a commit's own wait for its WAL flush.
    static let lingerSeconds = 0.001
    /// It waits only when fewer writes than this are queued.
    static let lingerBelow = 8

    /// Runs one batch to its commit; returns when the connection was found lost, if it broke.
    /// Every job is answered (or put back) exactly once: a job that failed on its own leaves
    /// the batch, whether the batch then goes on or rolls back and starts again without it.
    private func run(_ jobs: [Job], _ connection: BlockingConnection) -> ContinuousClock.Instant? {
        var pending = jobs
        var putBack: [Job] = []
        var commitSent = false
        attempt: while true {
            let batch = WriteBatch()
            // Indices into `pending` of the jobs answered or put back during this attempt.
            var finished = Set<Int>()
            func unfinished() -> [Job] { pending.indices.filter { !finished.contains($0) }.map { pending[$0] } }
            do {
                try connection.execute("BEGIN")
                try PostgresTransaction(connection: connection, caches: caches, batch: batch).lockVehiclesAhead(pending.compactMap(\.vehicle))
                for (index, job) in pending.enumerated() {
                    let mark = batch.startWrite()
                    let failure: (any Error)?
                    do {
                        try job.body(PostgresTransaction(connection: connection, caches: caches, batch: batch))
                        failure = batch.aborted ? StatusError(.internal, "a statement failed and its error was not passed on") : nil
                    } catch {
                        failure = error
                    }
                    guard let failure else { continue }
                    if DatabaseError.isConnectionLoss(failure) || DatabaseError.storageFailure(failure) != nil { throw failure }
                    finished.insert(index)
                    let retry = failure is RowLocked || DatabaseError.isRetryable(failure)
                    if retry { putBack.append(job) } else { job.complete(.failure(DatabaseError.mapped(failure, pool.location))) }
                    if batch.writeNeedsRollback || batch.aborted {
                        try connection.execute("ROLLBACK")
                        pending = unfinished()
                        if pending.isEmpty { break attempt }
                        continue attempt
                    }
                    batch.rewind(to: mark)
                }
                try PostgresTransaction(connection: connection, caches: caches, batch: batch).addAggregates()
                if let vehicles = batch.vehicleUpdate() { try batch.vehiclesWritten(try connection.rows(vehicles)) }
                if let flush = EventLog.flush(batch, channel: channel, instance: instance) { _ = try connection.rows(flush) }
                commitSent = true
                let tag = try connection.commandTag("COMMIT")
                guard tag == "COMMIT" else { throw StatusError(.aborted, "the database rolled the transaction back (\(tag)); retry") }
            } catch {
                if DatabaseError.isConnectionLoss(error) {
                    // No ROLLBACK: the connection is gone or going (the database rolls back
                    // what it loses), and on a silent database the ROLLBACK would wait for
                    // another liveness check before these writes were answered.
                    let lost = ContinuousClock.now
                    answerLost(unfinished(), error: error, commitSent: commitSent)
                    schedule(putBack)
                    return lost
                }
                _ = try? connection.execute("ROLLBACK")
                // The flush met a conflict (it takes the log's lock): run the whole batch again.
                if DatabaseError.isRetryable(error) {
                    putBack += unfinished()
                } else {
                    for job in unfinished() { job.complete(.failure(DatabaseError.mapped(error, pool.location))) }
                }
                break attempt
            }
            caches.apply(batch.cacheUpdates)
            for job in unfinished() { job.complete(.success(())) }
            break attempt
        }
        schedule(putBack)
        return nil
    }

    /// Answers the writes of a batch whose connection broke under `error`: runs them once
    /// more, first in the queue, when the commit was not sent and the connection broke rather
    /// than the database fell silent (see the file comment); fails them otherwise.
    private func answerLost(_ jobs: [Job], error: any Error, commitSent: Bool) {
        let rerun = !commitSent && DatabaseError.isBrokenConnection(error)
        var again: [Job] = []
        for var job in jobs {
            if rerun && !job.rerunAfterLoss {
                job.rerunAfterLoss = true
                again.append(job)
            } else {
                let reason =
                    commitSent
                    ? "the connection was lost during a write's commit, which may or may not have happened"
                    : "the connection was lost during a write, which did not commit (\(DatabaseError.describe(error)))"
                job.complete(.failure(DatabaseError.unavailable(pool.location, reason: reason)))
            }
        }
        if !again.isEmpty { enqueue(again, atFront: true) }
    }

    /// Puts writes back in the queue after a pause that grows with their retries; gives up
    /// (ABORTED) after ``maximumRetries``.
    private func schedule(_ jobs: [Job]) {
        guard !jobs.isEmpty else { return }
        var again: [Job] = []
        for var job in jobs {
            job.retries += 1
            if job.retries > Self.maximumRetries {
                job.complete(.failure(StatusError(.aborted, "the resource is being written by another server without pause; retry")))
            } else {
                again.append(job)
            }
        }
        guard let slowest = again.map(\.retries).max() else { return }
        let pause = Duration.milliseconds(min(1 << min(slowest - 1, 6), 50))
        Task {
            try? await Task.sleep(for: pause)
            self.enqueue(again, atFront: true)
        }
    }

    /// Stops the lane's thread.
    func shutdown() async {
        try? await thread.shutdownGracefully()
    }
}
