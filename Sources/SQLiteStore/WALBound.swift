import Foundation
import GRDB
import Logging
import Synchronization

/// Holds the WAL file under ``WALLimits/fileBytes`` on the writer's side: after each
/// transaction, once the file has reached ``WALLimits/writerRestartBytes``, the writer copies
/// the log back and waits for the readers still on older snapshots (SQLite's RESTART
/// checkpoint), so that its next transaction starts the log over from the file's first byte.
///
/// The checkpointer's pass tries for the same moment every 100 ms, but it may hold the writer
/// back for 20 ms only, and while readers keep overlapping (one starts before the last ends)
/// every such try may find one on an old snapshot: the probe of the second hardening round saw
/// the file at 18.2 MB, and soaks at 25.3 MB. Here the writer also holds the store's new reads
/// back (``ReadGate``) and waits for the reads under way, a few milliseconds in this server. A
/// reader that holds one snapshot for long (a backup) is not waited for past
/// ``WALLimits/writerWait``: the writer goes on, says so in the log, and waits again half a
/// second later, then twice as long after each wait that runs out, up to
/// ``WALLimits/secondsBetweenWaits``.
///
/// A file past ``WALLimits/writerRestartBytes`` means a log that long: the writer cuts the
/// file back to ``WALLimits/cutBackBytes``, below it, whenever the log starts over.
package final class WALBound: Sendable {
    /// What the writer has done to hold the bound since the store opened.
    package struct Counts: Sendable, Equatable {
        /// Logs started over because the file reached the writer's threshold.
        package var restarts = 0
        /// Waits that ran out before the readers ended (the log kept growing).
        package var waitsRunOut = 0
        /// Seconds the writer spent starting the log over, waits included.
        package var secondsHeld = 0.0
    }

    private struct State {
        var counts = Counts()
        /// When the writer may wait for readers again (seconds on the bound's clock).
        var nextWait = -Double.infinity
        /// Waits that ran out since the log last started over.
        var runOutInARow = 0
        /// The counts when the last summary was logged, and when.
        var summarized = Counts()
        var summarizedAt: Double?
    }

    /// Seconds between the log's summaries of the restarts.
    private static let summaryInterval = 60.0

    private let walPath: String
    private let limits: WALLimits
    private let gate: ReadGate
    private let seconds: @Sendable () -> Double
    private let state = Mutex(State())
    private let logger = Logger(label: "tripshare.sqlite")

    /// Seconds since the system started: the clock the writer's waits are spaced on.
    package static let uptime: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Bounds the WAL of the database at `databasePath`; `seconds` reads a monotonic clock. It
    /// holds the store's reads back at `gate` while it starts the log over.
    init(databasePath: String, limits: WALLimits, gate: ReadGate, seconds: @escaping @Sendable () -> Double) {
        walPath = databasePath + "-wal"
        self.limits = limits
        self.gate = gate
        self.seconds = seconds
    }

    /// What the writer has done so far.
    package var counts: Counts { state.withLock { $0.counts } }

    /// Runs on the writer's connection between transactions: starts the log over if the file
    /// has reached the writer's threshold, waiting for readers at most ``WALLimits/writerWait``.
    func afterTransaction(_ db: Database) {
        guard Self.fileBytes(walPath) >= limits.writerRestartBytes else { return }
        let now = seconds()
        guard state.withLock({ now >= $0.nextWait }) else { return }
        do {
            let deadline = Date(timeIntervalSinceNow: limits.writerWait / .seconds(1))
            let restarted = try gate.closed(until: deadline) { _ in
                try Self.restartCheckpoint(db, until: deadline)
            }
            let held = seconds() - now
            let summary = state.withLock { state -> String? in
                state.counts.secondsHeld += held
                if restarted {
                    state.counts.restarts += 1
                    state.runOutInARow = 0
                } else {
                    state.counts.waitsRunOut += 1
                    state.runOutInARow += 1
                    state.nextWait = now + limits.secondsBeforeRetry(afterWaitsRunOut: state.runOutInARow)
                }
                return Self.summary(of: &state, at: now)
            }
            if let summary { logger.info("\(summary)") }
            if !restarted {
                let retry = limits.secondsBeforeRetry(afterWaitsRunOut: state.withLock { $0.runOutInARow })
                logger.warning(
                    """
                    the SQLite WAL could not start over: a reader held an older snapshot for over \
                    \(limits.writerWait) (a backup?); the file is \(Self.fileBytes(walPath) >> 20) MiB, past its \
                    \(limits.fileBytes >> 20) MiB bound until that read ends; the writer goes on and tries again in \
                    \(retry) s
                    """)
            }
        } catch {
            // Not a busy reader (a full disk, an I/O error): the writes say so themselves.
            logger.debug("the SQLite WAL checkpoint failed: \(error)")
        }
    }

    /// What the writer did since the last summary, at most once per ``summaryInterval``
    /// (the first restart only starts the interval).
    private static func summary(of state: inout State, at now: Double) -> String? {
        guard let since = state.summarizedAt else {
            state.summarizedAt = now
            return nil
        }
        guard now - since >= summaryInterval else { return nil }
        let restarts = state.counts.restarts - state.summarized.restarts
        let held = state.counts.secondsHeld - state.summarized.secondsHeld
        let runOut = state.counts.waitsRunOut - state.summarized.waitsRunOut
        (state.summarized, state.summarizedAt) = (state.counts, now)
        return """
            the writer started the SQLite WAL over \(restarts) times in \(Int(now - since)) s, holding writes back \
            \(Int(held * 1_000)) ms in all; \(runOut) waits for readers ran out
            """
    }

    /// Copies the whole log back and waits for every reader to leave it; false when readers
    /// still held it at `deadline`. SQLite answers BUSY at once, without waiting, while
    /// another connection checkpoints (the checkpointer's pass copies for a few milliseconds
    /// every 100 ms), so a busy answer is tried again until the deadline. The connection's
    /// own busy timeout is restored afterwards.
    private static func restartCheckpoint(_ db: Database, until deadline: Date) throws -> Bool {
        let busyTimeout = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
        defer { _ = try? db.execute(sql: "PRAGMA busy_timeout = \(busyTimeout)") }
        while true {
            let waitMilliseconds = max(1, Int((deadline.timeIntervalSinceNow * 1_000).rounded(.up)))
            try db.execute(sql: "PRAGMA busy_timeout = \(waitMilliseconds)")
            do {
                try db.checkpoint(.restart)
                return true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                if Date() >= deadline { return false }
                usleep(1_000)
            }
        }
    }

    /// The size of the file at `path` in bytes (0 when there is none).
    static func fileBytes(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}
