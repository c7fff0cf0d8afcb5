import ServiceLifecycle
import TripStore

/// On a store that several server processes share, wakes the event broadcaster whenever
/// another process commits events (PostgreSQL's LISTEN/NOTIFY), so a rider connected here
/// sees a write taken by another process as soon as it commits. This process's own writes
/// reach it through the fleet's announcements (``Fleet/CommitAnnouncer``).
struct OtherServersCommits: Service {
    let store: any SharedTripStore
    let broadcaster: EventBroadcaster

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in store.eventCommits() { broadcaster.poke() }
        }
    }
}
