// Riders' trip reads that arrive while one is being answered share the next statement
// ("group read", like the write lane's group commit): with hundreds of riders polling, a
// process sends one statement for dozens of reads instead of one each, which saves the
// database a parse-free but still costly execute per read, and this process a connection
// lease, a deadline timer and a task per read.
//
// Why no read can come back stale: a read joins only a statement that has not been sent yet
// (the reads of a statement are taken from the queue just before it is sent), so the
// statement starts after the read did, and PostgreSQL takes its snapshot when a statement
// starts (READ COMMITTED). Every write committed before the read started, in any process,
// is therefore in the rows it gets back, exactly as when it ran a statement of its own; and
// the rows come with their versions, checked against the decoded-row caches as before
// (RowReads). Waiting in the queue only delays a read; it never gives it an older snapshot.

import Logging
import PostgresNIO
import Synchronization
import TripModel

/// Gathers concurrent trip reads into one statement at a time (see the file comment).
final class TripReadBatcher: Sendable {
    /// Reads answered by one statement at most.
    static let maximumBatch = 64

    private struct Waiting {
        let read: TripRead
        let continuation: CheckedContinuation<PostgresRow?, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Whether a statement is on its way: reads arriving meanwhile wait for the next.
        var running = false
    }

    private let state = Mutex(State())
    /// Runs one statement on a pooled connection (the store's, with its deadline and retry).
    private let rows: @Sendable (any RowStatement) async throws -> [PostgresRow]

    init(rows: @escaping @Sendable (any RowStatement) async throws -> [PostgresRow]) {
        self.rows = rows
    }

    /// The row of `read` (nil when there is no such trip), read by a statement sent after
    /// this call started.
    func row(_ read: TripRead) async throws -> PostgresRow? {
        // Nothing on its way: this read leads, with whatever joined it meanwhile, on its own
        // task (no hop at all when the process is quiet).
        let leads = state.withLock { state in
            defer { state.running = true }
            return !state.running
        }
        if leads { return try await lead(read) }
        return try await withCheckedThrowingContinuation { continuation in
            let startNow = state.withLock { state in
                if state.running {
                    state.waiting.append(Waiting(read: read, continuation: continuation))
                    return false
                }
                state.running = true
                return true
            }
            // The statement it would have waited for has ended in the meantime.
            if startNow {
                Task { await self.drain(first: [Waiting(read: read, continuation: continuation)]) }
            }
        }
    }

    /// Sends `read` together with the reads waiting now, answers them, and passes the lead on.
    private func lead(_ read: TripRead) async throws -> PostgresRow? {
        let others = takeWaiting()
        let outcome: Result<[PostgresRow?], any Error>
        do {
            outcome = .success(try await run([read] + others.map(\.read)))
        } catch {
            outcome = .failure(error)
        }
        answer(others, outcome.map { Array($0.dropFirst()) })
        handOver()
        return try outcome.get()[0]
    }

    /// Sends the waiting reads, a statement at a time, until none are left.
    private func drain(first: [Waiting]) async {
        var batch = first + takeWaiting()
        while !batch.isEmpty {
            do {
                answer(batch, .success(try await run(batch.map(\.read))))
            } catch {
                answer(batch, .failure(error))
            }
            batch = state.withLock { state in
                let next = takeWaiting(&state)
                if next.isEmpty { state.running = false }
                return next
            }
        }
    }

    /// Ends a leader's turn: the reads that arrived while it ran go out on a task of their
    /// own, so the leader's caller need not wait for them.
    private func handOver() {
        let next = state.withLock { state in
            let next = takeWaiting(&state)
            if next.isEmpty { state.running = false }
            return next
        }
        if !next.isEmpty { Task { await self.drain(first: next) } }
    }

    private func takeWaiting() -> [Waiting] { state.withLock { takeWaiting(&$0) } }

    private func takeWaiting(_ state: inout State) -> [Waiting] {
        let taken = Array(state.waiting.prefix(Self.maximumBatch - 1))
        state.waiting.removeFirst(taken.count)
        return taken
    }

    private func answer(_ waiting: [Waiting], _ outcome: Result<[PostgresRow?], any Error>) {
        switch outcome {
        case .success(let rows): for (entry, row) in zip(waiting, rows) { entry.continuation.resume(returning: row) }
        case .failure(let error): for entry in waiting { entry.continuation.resume(throwing: error) }
        }
    }

    /// Each read's row (nil: no such trip), in the order of `reads`: one statement.
    private func run(_ reads: [TripRead]) async throws -> [PostgresRow?] {
        if reads.count == 1 { return [try await rows(reads[0]).first] }
        var found = [PostgresRow?](repeating: nil, count: reads.count)
        for row in try await rows(TripReads(reads: reads)) {
            let position = try TripReads.position(of: row)
            guard found.indices.contains(position) else { throw StatusError(.internal, "a batched trip read answered read \(position)") }
            found[position] = row
        }
        return found
    }
}
