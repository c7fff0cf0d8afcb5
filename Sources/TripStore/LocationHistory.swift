import TripModel

/// A vehicle's location history is what the event log already holds: its
/// `didUpdateVehicleLocation` events since it was created, each carrying the location
/// (migration 0007 says why there is no second copy).
enum LocationHistory {
    /// The most locations a read returns.
    static let maximumLength = 1_000

    /// The location logged by a `didUpdateVehicleLocation` event.
    static func location(fromEventData data: String) throws -> VehicleLocation {
        try SQLiteTransaction.decode(VehicleLocation.self, data)
    }
}
