import ServiceLifecycle
import TripStore

/// On a store that several server processes share, announces through the fleet's
/// ``CommitAnnouncer`` each commit another process makes (PostgreSQL's LISTEN/NOTIFY), so
/// that whoever follows the fleet's commits (the event streams) hears of another process's
/// writes the same way as of this one's, as soon as they commit. A service to run beside the
/// server until graceful shutdown; ``Fleet/otherServersCommits`` makes it when the store is
/// shared.
package struct OtherServersCommits: Service {
    let store: any SharedTripStore
    let announcer: CommitAnnouncer

    /// Announces each of the other processes' commits until graceful shutdown.
    package func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in store.eventCommits() { announcer.announce() }
        }
    }
}

extension Fleet {
    /// The service that announces the commits other server processes make on this fleet's
    /// store; nil when the store is not shared (one process owns it, so there are none).
    package var otherServersCommits: OtherServersCommits? {
        (store as? any SharedTripStore).map { OtherServersCommits(store: $0, announcer: commits) }
    }
}
