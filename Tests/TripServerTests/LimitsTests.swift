import Hummingbird
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct LimitsTests {
    /// One vehicle carries at most 50 unfinished trips: the 51st, by create or by
    /// reassignment, is FAILED_PRECONDITION naming the vehicle and the bound; finishing one
    /// makes room again.
    @Test func tripsPerVehicleAreCapped() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await harness.seed(client)
            for i in 2...Limits.maximumTripsPerVehicle {
                try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t\(i)", as: harness.server, body: Bodies.trip(vehicle: "v1"))
            }
            let refused = try await client.expect(
                .badRequest, .post, "/v1/providers/p/trips?tripId=t51", as: harness.server,
                body: Bodies.trip(vehicle: "v1"))
            #expect(refused.errorStatus == "FAILED_PRECONDITION")
            #expect(refused.errorMessage.contains("trip.vehicleId: vehicle 'v1' already carries 50 unfinished trips"), "\(refused.errorMessage)")
            try await client.expect(.notFound, .get, "/v1/providers/p/trips/t51", as: harness.server)

            // Moving a trip onto the full vehicle is refused the same way; an unassigned trip is fine.
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=loose", as: harness.server, body: Bodies.trip())
            let moved = try await client.expect(
                .badRequest, .put, "/v1/providers/p/trips/loose?updateMask=vehicleId", as: harness.server,
                body: #"{"vehicleId": "v1"}"#)
            #expect(moved.errorStatus == "FAILED_PRECONDITION")

            try await client.expect(
                .ok, .put, "/v1/providers/p/trips/t2?updateMask=tripStatus", as: harness.server,
                body: Bodies.status("CANCELED"))
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t51", as: harness.server, body: Bodies.trip(vehicle: "v1"))
            let vehicle = try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: harness.server)
            guard case .array(let current)? = try vehicle.json()["currentTrips"] else {
                Issue.record("no currentTrips")
                return
            }
            #expect(current.count == Limits.maximumTripsPerVehicle)
        }
    }

    /// Strings are bounded in bytes at the API too: an ID of 64 characters and 12,864 bytes
    /// and a 512,512-byte attribute value are refused with the field and the bound.
    @Test func heavyStringsAreRefused() async throws {
        let harness = try await Harness()
        let heavyID = String(repeating: "e" + String(repeating: "\u{301}", count: 100), count: 64)
        let escapedID = heavyID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? heavyID
        try await harness.test { client in
            let id = try await client.expect(
                .badRequest, .post, "/v1/providers/p/vehicles?vehicleId=\(escapedID)", as: harness.server,
                body: Bodies.vehicle)
            #expect(id.errorMessage.contains("vehicleId: must be at most 256 bytes in UTF-8, got 12864"), "\(id.errorMessage)")
            try await harness.seed(client)
            let value = String(repeating: "a" + String(repeating: "\u{300}", count: 1_000), count: 256)
            let attribute = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: harness.server,
                body: #"{"attributes": [{"key": "label", "value": "\#(value)"}]}"#)
            #expect(attribute.errorMessage.contains("vehicle.attributes[0].stringValue: must be at most 1024 bytes"), "\(attribute.errorMessage)")
        }
    }
}
