import GRDB
import Synchronization

/// Runs the store's writes in shared transactions ("group commit"): the writes that arrive
/// while one transaction is open wait, and then all of them run in the next transaction,
/// each in its own savepoint, and commit together.
///
/// SQLite's cost per write is mostly per transaction (BEGIN, the WAL frames of the pages
/// every write touches, such as the event log's last page, and the commit), plus a hop to
/// the writer's queue and back. Under load many writes are waiting at once, so sharing a
/// transaction divides that cost among them. A write is still answered only after its
/// transaction has committed, and a write that fails rolls back its own savepoint only.
final class GroupCommit: Sendable {
    /// What to do once a write's transaction has ended: called with nil after the commit,
    /// or with the error that prevented it.
    typealias Completion = @Sendable ((any Error)?) -> Void

    /// A queued write.
    struct Job: Sendable {
        /// Runs the write inside the open transaction; returns what to do once the
        /// transaction has ended, and the error the write failed with, if any.
        let run: @Sendable (Database) -> (completion: Completion, failure: (any Error)?)
        /// Answers the write when its transaction failed before the write could run.
        let fail: @Sendable (any Error) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var draining = false
    }

    /// SQLite rolled the whole transaction back after `cause` (a full disk, an I/O error), so
    /// no write of the batch committed.
    struct RolledBack: Error {
        let cause: (any Error)?
    }

    private let pool: DatabasePool
    /// Runs on the writer's connection after every transaction, before the next begins.
    private let afterTransaction: @Sendable (Database) -> Void
    private let queue = Mutex(Queue())
    /// At most this many writes share a transaction, so the first of them is not kept
    /// waiting behind an unbounded number of others.
    static let maximumBatch = 256

    init(pool: DatabasePool, afterTransaction: @escaping @Sendable (Database) -> Void = { _ in }) {
        self.pool = pool
        self.afterTransaction = afterTransaction
    }

    /// Queues a job; the writer's queue picks it up with whatever else is waiting.
    func enqueue(_ job: Job) {
        let startDrain = queue.withLock { queue in
            queue.jobs.append(job)
            if queue.draining { return false }
            queue.draining = true
            return true
        }
        if startDrain { pool.asyncWriteWithoutTransaction { db in self.drain(db) } }
    }

    private func drain(_ db: Database) {
        while true {
            let jobs = queue.withLock { queue -> [Job] in
                let batch = Array(queue.jobs.prefix(Self.maximumBatch))
                queue.jobs.removeFirst(batch.count)
                if batch.isEmpty { queue.draining = false }
                return batch
            }
            if jobs.isEmpty { return }
            run(jobs, db)
            afterTransaction(db)
        }
    }

    private func run(_ jobs: [Job], _ db: Database) {
        var completions: [Completion] = []
        completions.reserveCapacity(jobs.count)
        do {
            try db.inTransaction(.immediate) {
                for job in jobs {
                    let (completion, failure) = job.run(db)
                    completions.append(completion)
                    // An error that makes SQLite roll back the whole transaction (disk full,
                    // I/O error) takes the earlier writes with it: none of the batch commits.
                    if !db.isInsideTransaction { throw RolledBack(cause: failure) }
                }
                return .commit
            }
        } catch {
            for completion in completions { completion(error) }
            for job in jobs.dropFirst(completions.count) { job.fail(error) }
            return
        }
        for completion in completions { completion(nil) }
    }
}
