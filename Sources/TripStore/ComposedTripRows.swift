// Reads that only compose a trip with its vehicle (a rider's read that missed the caches,
// SearchTrips) decode of the two rows only what the composed trip shows: at 50,000 trips most
// riders' reads decode both rows, and the members they never show (the trip's own copy of the
// live fields, the vehicle's type, capacity, trips, estimator's state, ...) were some two
// fifths of decoding them (issue 30): 52 µs became 32 for the load test's rows.

import TripModel

/// The rows of a trip whose live fields come from its vehicle, decoded for composing the two
/// (``TripModel/Trip/withProgress(of:)``) and nothing else: neither value is one to keep.
package enum ComposedTripRows {
    /// The trip from its row's body, without the live fields its vehicle gives
    /// (``TripModel/Trip/WithoutVehicleProgress``).
    package static func trip(body: String) throws -> Trip {
        try StoredRows.decode(Trip.WithoutVehicleProgress.self, body, named: "Trip").trip
    }

    /// The vehicle from its row's body and tracking and its route's row: of the body only the
    /// members a trip takes (``TripModel/Vehicle/TripProgressSource``), of the tracking only
    /// where the first leg starts (to cut the path to the first stop from the route).
    package static func vehicle<Bytes: Collection<UInt8>>(
        body: String, tracking: String, polyline: String?, checkpoints: Bytes?
    ) throws -> Vehicle {
        var firstLeg = RouteTracking()
        firstLeg.firstLegStartMeters = try StoredRows.member("firstLegStartMeters", of: tracking, as: Double.self)
        let source = try StoredRows.decode(Vehicle.TripProgressSource.self, body, named: "Vehicle")
        return StoredRoute.vehicle(body: source.vehicle, tracking: firstLeg, polyline: polyline, checkpoints: checkpoints)
    }
}
