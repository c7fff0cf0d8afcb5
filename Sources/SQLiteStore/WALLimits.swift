/// How large the store lets SQLite's write-ahead log grow, and how long its writer waits for
/// readers to keep it there (docs/limits.md, "SQLite's write-ahead log").
///
/// The WAL file never shrinks while the log grows, and the log starts over only once every
/// page is copied back and no reader is still on a snapshot that needs it. The checkpointer's
/// pass tries for that moment cheaply, without holding the writer back for long; the writer
/// makes sure of it (``WALBound``) once the file nears ``fileBytes``.
package struct WALLimits: Sendable {
    /// The bound on the WAL file's size while reads are short (16 MiB).
    package var fileBytes: Int
    /// Room under ``fileBytes`` for the transaction that crosses ``writerRestartBytes`` (2 MiB,
    /// 509 pages: a batch of location updates writes a few dozen, a retention write of 256
    /// events up to about 400; a soak with 1 MiB of room saw the file at 16.5 MiB).
    package var transactionHeadroomBytes: Int
    /// Log pages beyond which the checkpointer's pass waits briefly for readers so that the
    /// log starts over (8 MiB).
    package var passRestartPages: Int
    /// How long the writer waits for readers on old snapshots when the file reaches
    /// ``writerRestartBytes``; past it the writer goes on, and the log keeps growing until
    /// those readers end.
    package var writerWait: Duration
    /// Seconds after a wait that ran out before the writer waits again, the first time: a
    /// read that merely overlapped the wait (one long query) has ended by then, so the log
    /// grows for half a second, not for ``secondsBetweenWaits``.
    package var secondsBeforeFirstRetry: Double
    /// The longest interval between waits, reached by doubling ``secondsBeforeFirstRetry``
    /// after each wait that runs out in a row: a reader that holds one snapshot for long (a
    /// backup) costs the writer one wait per interval, not one per transaction.
    package var secondsBetweenWaits: Double

    /// The standard limits.
    package static let standard = WALLimits()

    /// Limits with these values; the rest standard.
    package init(
        fileBytes: Int = 16 * 1024 * 1024, transactionHeadroomBytes: Int = 2 * 1024 * 1024, passRestartPages: Int = 2_048,
        writerWait: Duration = .milliseconds(200), secondsBeforeFirstRetry: Double = 0.5, secondsBetweenWaits: Double = 5
    ) {
        self.fileBytes = fileBytes
        self.transactionHeadroomBytes = transactionHeadroomBytes
        self.passRestartPages = passRestartPages
        self.writerWait = writerWait
        self.secondsBeforeFirstRetry = secondsBeforeFirstRetry
        self.secondsBetweenWaits = secondsBetweenWaits
    }

    /// Seconds before the writer waits again after `runOut` waits in a row ran out.
    func secondsBeforeRetry(afterWaitsRunOut runOut: Int) -> Double {
        min(secondsBetweenWaits, secondsBeforeFirstRetry * Double(1 << min(max(runOut - 1, 0), 16)))
    }

    /// The file size at which the writer starts the log over before its next transaction.
    var writerRestartBytes: Int { fileBytes - transactionHeadroomBytes }

    /// What the writer cuts the file back to when the log starts over (SQLite's
    /// `journal_size_limit`): below ``writerRestartBytes``, so that a file past that size
    /// holds a log that long, not the room an earlier, longer log left.
    var cutBackBytes: Int { writerRestartBytes - transactionHeadroomBytes }
}
