import Geo
import JSON
import Testing
import TripModel

/// The stores read their rows with StoredJSONDecoder (issue 30). Every field of Fleet Engine's
/// vehicles and trips, as FleetEngineFieldTable sends it, reads back from its stored encoding
/// as StrictJSONDecoder reads it, and as a value that encodes to the same row (the stored
/// encoding leaves out what a request may send but a resource does not keep, such as
/// `pastLocations`).
@Suite struct StoredRowDecodingTests {
    static func storedRoundTrip<T: Codable & Equatable>(_ type: T.Type, _ body: String) throws {
        let value = try StrictJSONDecoder().decode(type, from: Array(body.utf8), root: "body")
        let stored = try JSONCoding.encodeText(value)
        let read = try StoredJSONDecoder.decode(type, from: stored, root: "stored")
        #expect(try JSONCoding.encodeText(read) == stored)
        #expect(read == (try StrictJSONDecoder().decode(type, from: Array(stored.utf8), root: "stored")))
    }

    /// The table's bodies with their placeholders filled in as a request would have them.
    static func filledIn(_ body: String) -> String {
        body.replacingOccurrences(of: "{trip}", with: "t1").replacingOccurrences(of: "{vehicle}", with: "v1")
            .replacingOccurrences(of: "{id}", with: "x1")
            .replacingOccurrences(of: "{intermediateDestinationsVersion}", with: "2026-11-30T08:24:07.447027Z")
    }

    @Test(arguments: FieldCase.all)
    func everyFieldReadsBackFromItsRow(_ field: FieldCase) throws {
        switch field.action {
        case .vehicle(_, let body, _, _): try Self.storedRoundTrip(Vehicle.self, Self.filledIn(body))
        case .trip(_, let body, _): try Self.storedRoundTrip(Trip.self, Self.filledIn(body))
        }
    }

    /// Every vehicle and trip field, stored: a trip composed from the rows decoded in part (of
    /// the vehicle the members a trip takes, ``TripModel/Vehicle/TripProgressSource``; of the
    /// trip all but the live fields its vehicle gives, ``TripModel/Trip/WithoutVehicleProgress``)
    /// is the trip composed from the whole rows. A member the composition starts to read, or
    /// stops overwriting, fails here until the partial decoding follows.
    @Test(arguments: FieldCase.all)
    func partialRowsComposeAsWholeRows(_ field: FieldCase) throws {
        var vehicle = Vehicle(name: "providers/p/vehicles/v1")
        var trip = Trip(name: "providers/p/trips/t1")
        switch field.action {
        case .vehicle(_, let body, _, _):
            vehicle = try StrictJSONDecoder().decode(Vehicle.self, from: Array(Self.filledIn(body).utf8), root: "body")
            trip.vehicleId = "v1"
            trip.tripStatus = .enrouteToPickup
        case .trip(_, let body, _):
            trip = try StrictJSONDecoder().decode(Trip.self, from: Array(Self.filledIn(body).utf8), root: "body")
            vehicle.lastLocation = VehicleLocation(location: LatLng(latitude: 1, longitude: 2))
            vehicle.remainingDistanceMeters = 700
        }
        if vehicle.waypoints.isEmpty {
            vehicle.waypoints = [TripWaypoint(tripId: "t1", waypointType: .pickup, distanceMeters: 500)]
        }
        let storedVehicle = try JSONCoding.encodeText(vehicle)
        let storedTrip = try JSONCoding.encodeText(trip)
        let whole = try StoredJSONDecoder.decode(Trip.self, from: storedTrip, root: "stored")
            .withProgress(of: try StoredJSONDecoder.decode(Vehicle.self, from: storedVehicle, root: "stored"))
        let part = try StoredJSONDecoder.decode(Trip.WithoutVehicleProgress.self, from: storedTrip, root: "stored").trip
            .withProgress(of: try StoredJSONDecoder.decode(Vehicle.TripProgressSource.self, from: storedVehicle, root: "stored").vehicle)
        #expect(part == whole)
    }
}
