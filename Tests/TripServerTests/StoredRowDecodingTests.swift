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

    /// Every vehicle field, stored: a trip composed with the vehicle decoded for the members a
    /// trip takes (``TripModel/Vehicle/TripProgressSource``) is the trip composed with the whole
    /// vehicle, so a member the composition starts to read fails here until the source reads it.
    @Test(arguments: FieldCase.all)
    func tripsComposeFromTheirProgressSourceAsFromTheWholeVehicle(_ field: FieldCase) throws {
        guard case .vehicle(_, let body, _, _) = field.action else { return }
        var vehicle = try StrictJSONDecoder().decode(Vehicle.self, from: Array(Self.filledIn(body).utf8), root: "body")
        if vehicle.waypoints.isEmpty {
            vehicle.waypoints = [TripWaypoint(tripId: "t1", waypointType: .pickup, distanceMeters: 500)]
        }
        let stored = try JSONCoding.encodeText(vehicle)
        let whole = try StoredJSONDecoder.decode(Vehicle.self, from: stored, root: "stored")
        let source = try StoredJSONDecoder.decode(Vehicle.TripProgressSource.self, from: stored, root: "stored").vehicle
        var trip = Trip(name: "providers/p/trips/t1")
        trip.vehicleId = "v1"
        trip.tripStatus = .enrouteToPickup
        #expect(trip.withProgress(of: source) == trip.withProgress(of: whole))
    }
}
