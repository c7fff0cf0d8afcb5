// The store's side of /readyz (DESIGN §11): a load balancer must stop sending writes while
// they fail for want of storage, and send them again once they succeed. Every store feeds
// one of these from its writes (the SQLite store from its commits, a networked store from
// its lost and regained connections); Fleet reads it, and while it holds a failure asks the
// store to probe with a write of its own, since nobody else may write to a server that
// says it is not ready.

import Synchronization
import TripModel

/// Whether a store's writes currently fail for want of storage (a full disk, an I/O error, a
/// lost database), and with which message.
public final class StoreHealth: Sendable {
    private let state = Mutex<StatusError?>(nil)
    /// Set while a failure is recorded, so that a successful write (every write) costs one
    /// atomic load.
    private let failing = Atomic<Bool>(false)
    /// Set once a write has succeeded.
    private let succeeded = Atomic<Bool>(false)

    /// Healthy, until a write fails.
    public init() {}

    /// The storage failure the newest write ended with (an `UNAVAILABLE` ``StatusError``); nil
    /// while writes succeed.
    package var failure: StatusError? {
        guard failing.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0 }
    }

    /// Whether a write has succeeded since the store was opened: until one has, nothing says
    /// that the storage takes writes (a server may start on a full disk).
    package var hasSucceeded: Bool { succeeded.load(ordering: .relaxed) }

    /// Records a write that committed: writes work (again).
    package func recordSuccess() {
        if !succeeded.load(ordering: .relaxed) { succeeded.store(true, ordering: .relaxed) }
        guard failing.load(ordering: .acquiring) else { return }
        state.withLock { failure in
            failure = nil
            failing.store(false, ordering: .releasing)
        }
    }

    /// Records a write that failed for want of storage.
    package func recordFailure(_ error: StatusError) {
        state.withLock { failure in
            failure = error
            failing.store(true, ordering: .releasing)
        }
    }
}
