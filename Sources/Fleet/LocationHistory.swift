import JSON
import TripModel
import TripStore

/// A vehicle's location history is what the event log already holds: its
/// `didUpdateVehicleLocation` events since it was created, each carrying the location
/// (SQLite migration 0007 says why there is no second copy).
enum LocationHistory {
    /// The most locations a read returns.
    static let maximumLength = 1_000

    /// The location logged by a `didUpdateVehicleLocation` event.
    static func location(of event: StoredEvent) throws -> VehicleLocation {
        do {
            return try StoredJSONDecoder.decode(VehicleLocation.self, from: event.data, root: "stored")
        } catch {
            throw StatusError(.internal, "the location logged by event \(event.id) cannot be read: \(error)")
        }
    }
}
