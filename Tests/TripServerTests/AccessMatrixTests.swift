import Hummingbird
import Testing
import TripModel
import TripServer
import TripStoreTesting

@Suite struct AccessMatrixTests {
    /// The role matrix of DESIGN §4, route by route, for a consumer of t1, a consumer of
    /// another trip, the driver of v1, the driver of another vehicle and a server.
    @Test(arguments: TestStoreKind.available) func roleMatrix(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server, body: Bodies.vehicle)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t2", as: harness.server, body: Bodies.trip(vehicle: "v2"))
            let consumer = harness.consumer("t1"), otherConsumer = harness.consumer("t2")
            let driver = harness.driver("v1"), otherDriver = harness.driver("v2")
            let server = harness.server
            typealias Row = (HTTPRequest.Method, String, String?, [(Principal, HTTPResponse.Status)])
            let rows: [Row] = [
                (.get, "/v1/providers/p/trips/t1?view=JOURNEY_SHARING_V1S", nil,
                 [(consumer, .ok), (otherConsumer, .forbidden), (driver, .ok), (otherDriver, .forbidden), (server, .ok)]),
                (.get, "/v1/providers/p/trips/t1", nil, [(consumer, .ok), (driver, .ok), (server, .ok)]),
                (.get, "/v1/providers/p/trips/t1?view=SDK", nil, [(consumer, .forbidden), (driver, .ok), (server, .ok)]),
                (.put, "/v1/providers/p/trips/t1?updateMask=tripStatus", Bodies.status("NEW"),
                 [(consumer, .forbidden), (otherDriver, .forbidden), (driver, .ok), (server, .ok)]),
                (.put, "/v1/providers/p/trips/t1?updateMask=numberOfPassengers", #"{"numberOfPassengers": 2}"#,
                 [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (.post, "/v1/providers/p/trips?tripId=t9", Bodies.trip(), [(consumer, .forbidden), (driver, .forbidden)]),
                (.post, "/v1/providers/p/trips:search", "{}", [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (.delete, "/v1/providers/p/trips/t2", nil, [(consumer, .forbidden), (otherConsumer, .forbidden), (otherDriver, .forbidden)]),
                (.get, "/v1/providers/p/vehicles/v1", nil, [(consumer, .forbidden), (driver, .ok), (otherDriver, .forbidden), (server, .ok)]),
                (.put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(37.395, -122.0),
                 [(consumer, .forbidden), (otherDriver, .forbidden), (driver, .ok), (server, .ok)]),
                (.patch, "/v1/providers/p/vehicles/v1?updateMask=maximumCapacity", #"{"maximumCapacity": 6}"#,
                 [(driver, .forbidden), (server, .ok)]),
                (.get, "/v1/providers/p/vehicles", nil, [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (.post, "/v1/providers/p/vehicles:search",
                 #"{"pickupPoint": {"point": {"latitude": 37.4, "longitude": -122}}, "pickupRadiusMeters": 2000, "count": 5, "minimumCapacity": 1, "tripTypes": ["EXCLUSIVE"], "orderBy": "PICKUP_POINT_ETA"}"#,
                 [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (.post, "/v1/providers/p/vehicles?vehicleId=v9", Bodies.vehicle, [(consumer, .forbidden), (driver, .forbidden)]),
                (.delete, "/v1/providers/p/vehicles/v1", nil, [(consumer, .forbidden), (driver, .forbidden)]),
            ]
            for (method, uri, body, expectations) in rows {
                for (principal, status) in expectations {
                    let reply = try await client.send(method, uri, as: principal, body: body)
                    #expect(reply.status == status, "\(principal.role.rawValue) \(principal.tripId ?? principal.vehicleId ?? "") \(method) \(uri): \(reply.text)")
                    if status == .forbidden { #expect(reply.errorStatus == "PERMISSION_DENIED") }
                }
            }
        }
    }

    /// A consumer asking without a view gets the journey-sharing view.
    @Test(arguments: TestStoreKind.available) func consumerDefaultView(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let reply = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.consumer("t1"))
            #expect(try reply.json()["view"] == .string("JOURNEY_SHARING_V1S"))
            let sdk = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.server)
            #expect(try sdk.json()["view"] == .string("SDK"))
        }
    }
}
