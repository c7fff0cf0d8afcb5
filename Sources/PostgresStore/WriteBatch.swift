import TripModel
import TripStore

/// What the writes sharing one transaction (``WriteLane``) have read, locked and changed so
/// far, kept until the transaction ends.
///
/// Rows this transaction holds locked stay as they are here until it ends, so reading them
/// again takes no statement. The vehicle row's lock guards its unfinished trips too: every
/// write of a trip assigned to a vehicle locks that vehicle first (Fleet reads it before
/// writing), so the trips read under it cannot change meanwhile.
final class WriteBatch {
    /// Vehicle rows locked (or inserted) by this transaction, as they now stand.
    var vehicles: [String: VehicleRecord] = [:]
    /// The unfinished trips (IDs and row versions, oldest first) of the vehicles locked here,
    /// read with them; dropped when this transaction writes a trip's assignment or status.
    var unfinishedTrips: [String: [(id: String, version: Int64)]] = [:]
    /// Vehicle rows changed here, written together just before the commit (a vehicle update
    /// then costs no round trip of its own): nothing in the transaction reads them from the
    /// table meanwhile, only from ``vehicles``.
    var changedVehicles: [String: ChangedVehicle] = [:]
    /// Trip rows read under their vehicle's lock, or locked or written here, as they now stand.
    var trips: [String: TripRow] = [:]
    /// Events to log at commit, in order (their ids are handed out then: EventLog).
    var events: [(provider: String, event: NewEvent)] = []
    /// Road-cell passes and area observations to add at the end of the batch, in the order
    /// the writes made them (``AggregateAddition``).
    var aggregateAdditions: [AggregateAddition] = []
    /// Vehicles inserted here, with how many events were logged before each (their history
    /// starts after those).
    var insertedVehicles: [(provider: String, id: String, eventsBefore: Int)] = []
    /// Cache updates, applied once the transaction has committed.
    var cacheUpdates: [CacheUpdate] = []
    /// Whether the current write has changed a row or locked a trip: when it then fails, only
    /// a rollback takes that back (writes share the transaction without savepoints, which
    /// would cost two round trips each). A vehicle it only locked may stay locked until the
    /// commit: other processes' writes skip a locked vehicle and run again later, so the lock
    /// makes nobody wait. A locked trip could (a location update writes its vehicle's trips
    /// without locking them first), so it is rolled back.
    var writeNeedsRollback = false
    /// Whether a statement failed: PostgreSQL then refuses everything until the rollback.
    var aborted = false

    /// A vehicle row to write before the commit.
    struct ChangedVehicle {
        var provider: String
        var id: String
        var record: VehicleRecord
        /// The JSON of the record's vehicle and tracking.
        var body: String
        var tracking: String
        /// How many updates it stands for (the row's version moves by as many).
        var updates: Int64
    }

    /// Where the current write started, to take back what it buffered when it fails
    /// without needing a rollback.
    struct Mark {
        var events: Int
        var aggregateAdditions: Int
        var insertedVehicles: Int
        var cacheUpdates: Int
    }

    /// Marks the start of a write.
    func startWrite() -> Mark {
        writeNeedsRollback = false
        return Mark(
            events: events.count, aggregateAdditions: aggregateAdditions.count, insertedVehicles: insertedVehicles.count,
            cacheUpdates: cacheUpdates.count)
    }

    /// Takes back what a write that needs no rollback buffered.
    func rewind(to mark: Mark) {
        events.removeLast(events.count - mark.events)
        aggregateAdditions.removeLast(aggregateAdditions.count - mark.aggregateAdditions)
        insertedVehicles.removeLast(insertedVehicles.count - mark.insertedVehicles)
        cacheUpdates.removeLast(cacheUpdates.count - mark.cacheUpdates)
    }

    /// Records a cache update and the row as it now stands here.
    func record(_ update: CacheUpdate) {
        cacheUpdates.append(update)
        switch update {
        case .vehicle(let key, _, let record): vehicles[key] = record
        case .trip(let key, _, let row): trips[key] = row
        case .removeVehicle(let key): vehicles[key] = nil
        case .removeTrip(let key): trips[key] = nil
        }
    }
}
