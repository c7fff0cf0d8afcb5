// What a store saved of a vehicle, from which the API's answer to an update is made after the
// write's transaction (issues 29 and 31): SQLite's writes run one after another on one thread,
// so every microsecond of an update spent inside the transaction caps the rate of location
// updates, and putting the route back into the saved JSON (and leaving out the extensions a
// client did not ask for) need not be done there.

import TripModel

/// A vehicle's JSON as a store encoded it to save it: the row's body, without the route
/// segment and the path the row leaves out (``StoredRoute``).
public struct SavedVehicleJSON: Sendable {
    /// The body the row stores.
    let body: [UInt8]
    /// The record saved.
    let record: VehicleRecord

    /// The JSON `body` a store saved for `record`.
    package init(body: [UInt8], record: VehicleRecord) {
        self.body = body
        self.record = record
    }

    /// The vehicle's JSON as the API answers it: the body with the route segment, and the
    /// first waypoint's path and traffic where the body leaves them out, put back.
    package func answer() throws -> [UInt8] {
        try StoredRoute.answer(body: body, record: record)
    }
}
