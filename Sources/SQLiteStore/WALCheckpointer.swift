import Dispatch
import GRDB
import Synchronization

/// Copies committed pages from the WAL back into the database file on its own connection
/// and thread, several times a second, so the writer never stops to do it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold: the
/// write that happens to trigger it waits for thousands of pages to be copied and synced,
/// and every write queued behind it waits too (measured: a tenth of the writer's time under
/// a stream of vehicle updates). A passive checkpoint never blocks the writer or readers.
/// The writer keeps a much higher automatic threshold of its own as a backstop, for when
/// this one cannot keep up (a reader holding an old snapshot for a long time).
///
/// Once the log holds ``WALLimits/passRestartPages``, a pass also waits up to 20 ms (holding
/// writers back that long at most) for the readers in the log to finish, so that the next
/// write starts the log over: cheap, but under a steady stream of overlapping reads that
/// moment may not come, and the writer then makes sure of it (``WALBound``).
///
/// The log is started over in the file it has, not truncated to nothing: location updates
/// fill 8 MiB of log in half a second from one client, faster under load, and a truncated
/// log made the writer allocate the file's blocks anew every time (issues 29 and 31).
final class WALCheckpointer: Sendable {
    /// The writer's own automatic checkpoint threshold, in pages.
    static let writerThresholdPages = 4_096
    private let connection: DatabaseQueue
    /// Behind a mutex only because Dispatch does not mark its sources Sendable.
    private let timer: Mutex<any DispatchSourceTimer>

    init(path: String, limits: WALLimits, interval: DispatchTimeInterval = .milliseconds(100)) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(1)
        configuration.label = "tripshare.checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        self.connection = connection
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tripshare.checkpoint", qos: .utility))
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        source.setEventHandler {
            // A failed pass (the database busy with something exclusive) is retried next tick.
            _ = try? connection.writeWithoutTransaction { db in
                let (pages, _) = try db.checkpoint(.passive)
                guard pages >= limits.passRestartPages else { return }
                try db.execute(sql: "PRAGMA busy_timeout = 20")
                defer { _ = try? db.execute(sql: "PRAGMA busy_timeout = 1000") }
                _ = try? db.checkpoint(.restart)
            }
        }
        source.resume()
        timer = Mutex(source)
    }

    deinit { timer.withLock { $0.cancel() } }
}
