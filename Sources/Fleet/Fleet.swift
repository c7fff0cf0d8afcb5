// The application layer (DESIGN §1): between the HTTP server and the stores. It holds the
// rules — what a write changes, which events it logs, when and how the navigator runs, how
// styles change — and runs every API write as one store transaction of persistence
// primitives. It knows no HTTP and no SQL, and reads the time from the clock it is given.
//
// Where things go: the write flows are FleetWrites (one function per API write), derived trip
// state is TripModel's JourneyState, run by FleetWrites.refresh; the navigator's orchestration
// and its rules are VehicleNavigators (where the navigator's progress and the riders' ETAs
// meet, so that both come from one model); the event vocabulary is Events; styles are
// StyleService. A policy that decides what to keep (event retention) belongs here too, as a
// Fleet function run off the request path over store primitives that delete in batches; a
// vehicle's settings (the navigator's, the driver screen's) are read and written beside
// `navigatorSettings` in Fleet+Navigation, inside the vehicle's write.

import TripModel
import TripStore

/// The fleet: vehicles, trips, their navigators, events and styles, over a store.
public struct Fleet: Sendable {
    /// The store everything is kept in.
    public let store: any TripStore
    /// The time writes are stamped with.
    package let clock: WallClock
    /// Styles and their changes.
    package let styles: StyleService
    /// Who hears of each committed write (the event streams).
    package let commits = CommitAnnouncer()
    let navigators: VehicleNavigators
    let writes: FleetWrites
    let eventIDKey = EventIDKey()
    let readinessCheck = ReadinessCheck()

    /// A fleet over `store`, reading time from `clock`. At most `navigatorCacheCapacity`
    /// decoded navigators stay in memory; `navigatorUpdateObserver` is told how long each
    /// routed vehicle's navigator took per write (for metrics). `roadClasses` is the
    /// operator's map, read for the roads under each new route segment (DESIGN §5); without
    /// one, estimates use the vehicle type's typical speed.
    public init(
        store: any TripStore, clock: WallClock = .system, navigatorCacheCapacity: Int = 4_096,
        navigatorUpdateObserver: (@Sendable (Duration) -> Void)? = nil, roadClasses: (any RoadClassSource)? = nil
    ) {
        self.store = store
        self.clock = clock
        styles = StyleService(store: store, clock: clock)
        navigators = VehicleNavigators(cacheCapacity: navigatorCacheCapacity, updateDuration: navigatorUpdateObserver)
        writes = FleetWrites(navigators: navigators, roadClasses: roadClasses)
    }

    /// Runs `flow` as one store write at the current time, and announces it once it has
    /// committed; `vehicle` names the vehicle it reads first, if it does
    /// (TripStore.writeTransaction(readingVehicle:_:)).
    func write<T: Sendable>(
        readingVehicle vehicle: VehicleKey? = nil, _ flow: @escaping @Sendable (FleetWrites, any StoreTransaction, Timestamp) throws -> T
    ) async throws -> T {
        let now = clock.now
        let writes = writes
        let result = try await store.write(readingVehicle: vehicle) { tx in try flow(writes, tx, now) }
        commits.announce()
        return result
    }
}
