import Foundation
import Hummingbird
import JSON
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

/// tripshare's extensions of Fleet Engine's resources (a vehicle's `estimateMethod`) are in an
/// answer only when the request names them in `Tripshare-Extensions`: by default every route
/// that answers vehicles answers pure Fleet Engine, which Google's types parse strictly.
@Suite struct ResourceExtensionsTests {
    static let asked: HTTPFields = [ResourceExtensions.headerField: "estimateMethod"]

    static let sharedVehicle = """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["SHARED"], "maximumCapacity": 4,
         "vehicleType": {"category": "AUTO"},
         "lastLocation": {"location": {"latitude": 37.39, "longitude": -122.0}}}
        """

    static let sharedTrip = """
        {"tripType": "SHARED", "vehicleId": "v1", "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
         "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}}
        """

    static let search = """
        {"pickupPoint": {"point": {"latitude": 37.395, "longitude": -122}},
         "dropoffPoint": {"point": {"latitude": 37.41, "longitude": -122}}, "pickupRadiusMeters": 2000, "count": 5,
         "minimumCapacity": 1, "tripTypes": ["SHARED"], "vehicleTypes": [{"category": "AUTO"}], "orderBy": "PICKUP_POINT_ETA",
         "currentTripsPresent": "ANY"}
        """

    /// The vehicle objects of an answer: the answer itself, or those in `vehicles` or `matches`.
    static func vehicles(_ reply: Client.Reply) throws -> [JSONValue] {
        let json = try reply.json()
        if case .array(let list)? = json["vehicles"] { return list }
        if case .array(let matches)? = json["matches"] { return matches.compactMap { $0["vehicle"] } }
        return [json]
    }

    @Test(arguments: TestStoreKind.available) func onlyWhenAsked(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let s = harness.server
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: s, body: Self.sharedVehicle)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t1", as: s, body: Self.sharedTrip)
            let token = try await harness.token(s)

            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(37.391, -122.0)),
                (.patch, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(37.392, -122.0)),
                (.get, "/v1/providers/p/vehicles/v1", nil),
                (.get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", nil),
                (.post, "/v1/providers/p/vehicles:search", Self.search),
                (.post, "/v1/providers/p/vehicles?vehicleId=v2", Self.sharedVehicle),
            ]
            for (method, uri, body) in requests {
                let plain = try await client.send(method, uri, token: token, body: body)
                #expect(plain.status == .ok, "\(method) \(uri): \(plain.text)")
                if uri.hasSuffix("vehicleId=v2") {
                    try await client.expect(.ok, .delete, "/v1/providers/p/vehicles/v2", as: s)
                }
                let asked = try await client.send(method, uri, token: token, body: body, headers: Self.asked)
                #expect(asked.status == .ok, "\(method) \(uri): \(asked.text)")
                let plainVehicles = try Self.vehicles(plain)
                #expect(!plainVehicles.isEmpty && plainVehicles.allSatisfy { $0["estimateMethod"] == nil }, "\(method) \(uri): \(plain.text)")
                // A vehicle on a trip has an estimate; a new one (v2) has none to say.
                let onTrip = try Self.vehicles(asked).filter { $0["name"] == .string("providers/p/vehicles/v1") }
                if !uri.hasSuffix("vehicleId=v2") {
                    #expect(
                        onTrip.count == 1 && onTrip.allSatisfy { if case .string? = $0["estimateMethod"] { true } else { false } },
                        "\(method) \(uri): \(asked.text)")
                }
            }
        }
    }

    /// A name that is not an extension is INVALID_ARGUMENT naming it, before anything is written.
    @Test(arguments: TestStoreKind.available) func unknownExtension(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let token = try await harness.token(harness.server)
            let headers: HTTPFields = [ResourceExtensions.headerField: "estimateMethod, colour"]
            let reply = try await client.send(
                .post, "/v1/providers/p/vehicles?vehicleId=v1", token: token, body: Bodies.vehicle, headers: headers)
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage == "Tripshare-Extensions: 'colour' is not an extension; known: estimateBasis, estimateMethod")
            try await client.expect(.notFound, .get, "/v1/providers/p/vehicles/v1", as: harness.server)
        }
    }
}
