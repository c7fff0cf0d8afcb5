import Caching

/// Each vehicle's unfinished trips (IDs and row versions) as the writer last saw them, so
/// that a ``WriteRehearsal`` needs no SQL to know them. The writer checks the list a
/// rehearsal used against the database, so a list that is out of date costs a rehearsal,
/// never a wrong write.
final class UnfinishedTripLists: Sendable {
    private let lists: BoundedCache<String, [SQLiteTransaction.TripVersion]>

    /// Lists whose estimated sizes count against `pool`.
    init(pool: CachePool) {
        lists = BoundedCache(pool: pool, name: "unfinished_trip_lists")
    }

    /// The list of the vehicle `key` (`provider/vehicleId`), if one is held.
    func list(of key: String) -> [SQLiteTransaction.TripVersion]? {
        lists.value(forKey: key)
    }

    func store(_ list: [SQLiteTransaction.TripVersion], of key: String) {
        // The key, the array's header and each element's ID with its version and slot.
        let cost = key.utf8.count + 64 + list.reduce(0) { $0 + $1.id.utf8.count + 40 }
        lists.setValue(list, forKey: key, cost: cost)
    }
}
