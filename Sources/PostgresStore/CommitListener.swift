import Logging
import PostgresNIO
import Synchronization

/// Listens (`LISTEN`) on the schema's channel, where every write batch that logs events
/// notifies at commit (EventLog.flush), and passes on the newest event id of each commit made
/// by another store object (another process, usually): this process's own commits are
/// announced by its own server already.
///
/// One dedicated connection per listening stream; when it is lost, it reconnects with a
/// back-off (100 ms doubling to 5 s) and then yields 0 once, since commits may have been
/// missed meanwhile and the listener should read the log again.
struct CommitListener: Sendable {
    let pool: ConnectionPool
    let channel: String
    let instance: String
    let logger: Logger

    func stream() -> AsyncStream<Int64> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let task = Task { await listen(continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func listen(_ continuation: AsyncStream<Int64>.Continuation) async {
        var backoff = ConnectionPool.firstBackoff
        var connectedBefore = false
        while !Task.isCancelled {
            do {
                let connection = try await pool.connectDedicated()
                do {
                    try await connection.listen(on: channel) { notifications in
                        if connectedBefore {
                            logger.notice("listening for other servers' commits again", metadata: ["channel": "\(channel)"])
                            continuation.yield(0)
                        }
                        connectedBefore = true
                        backoff = ConnectionPool.firstBackoff
                        for try await notification in notifications {
                            guard let id = Self.eventID(notification.payload, skipping: instance) else { continue }
                            continuation.yield(id)
                        }
                    }
                } catch {
                    if !Task.isCancelled {
                        logger.warning(
                            "lost the connection that listens for other servers' commits", metadata: ["error": "\(DatabaseError.describe(error))"])
                    }
                }
                try? await connection.close()
            } catch {
                // Unreachable: the pool has logged it; try again after the back-off.
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, ConnectionPool.longestBackoff)
        }
        continuation.finish()
    }

    /// The event id of a notification `instance:id`, unless `instance` is `skipping`.
    static func eventID(_ payload: String, skipping instance: String) -> Int64? {
        let parts = payload.split(separator: ":")
        guard parts.count == 2, parts[0] != instance else { return nil }
        return Int64(parts[1])
    }
}
