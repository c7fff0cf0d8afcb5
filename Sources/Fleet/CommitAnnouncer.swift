import Synchronization

/// Tells listeners that one of the fleet's writes committed, whichever wire it came in by
/// (REST, gRPC, a command), or on a shared store that another server process's did
/// (``OtherServersCommits``), so that what follows the event log — the servers' event
/// streams — follows this one stream and reads each write at once instead of polling or
/// being poked by each transport.
package final class CommitAnnouncer: Sendable {
    private let listeners = Mutex<[@Sendable () -> Void]>([])

    /// A new announcer without listeners.
    package init() {}

    /// Calls `listener` after every write that commits from now on. It runs on the writer's
    /// task, after the commit, so it must only note the news (start a pump, set a flag).
    package func listen(_ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Tells every listener that a write committed.
    func announce() {
        for listener in listeners.withLock({ $0 }) { listener() }
    }
}
