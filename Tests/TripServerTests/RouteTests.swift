import Hummingbird
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct RouteTests {
    /// The vehicle routes answer as Fleet Engine's do.
    @Test(arguments: TestStoreKind.available) func vehicleRoutes(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let server = harness.server
            let created = try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: server, body: Bodies.vehicle)
            #expect(try created.json()["name"] == .string("providers/p/vehicles/v1"))
            let duplicate = try await client.expect(.conflict, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: server, body: Bodies.vehicle)
            #expect(duplicate.errorStatus == "ALREADY_EXISTS")
            let updated = try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation,vehicleState", as: server,
                body: #"{"vehicleState": "OFFLINE", "lastLocation": {"location": {"latitude": 1, "longitude": 2}}}"#)
            #expect(try updated.json()["vehicleState"] == .string("OFFLINE"))
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: server)
            let list = try await client.expect(.ok, .get, "/v1/providers/p/vehicles?pageSize=1&vehicleTypeCategories=AUTO", as: server)
            guard case .array(let vehicles)? = try list.json()["vehicles"] else {
                Issue.record("no vehicles array")
                return
            }
            #expect(vehicles.count == 1)
            try await client.expect(.ok, .delete, "/v1/providers/p/vehicles/v1", as: server)
            let gone = try await client.expect(.notFound, .get, "/v1/providers/p/vehicles/v1", as: server)
            #expect(gone.errorStatus == "NOT_FOUND" && gone.errorMessage == "vehicle 'v1' does not exist")
        }
    }

    /// The trip routes answer as Fleet Engine's do, through a whole trip.
    @Test(arguments: TestStoreKind.available) func tripRoutes(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let server = harness.server
            for status in ["ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF"] {
                try await client.expect(.ok, .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: server, body: Bodies.status(status))
            }
            let search = try await client.expect(
                .ok, .post, "/v1/providers/p/trips:search", as: server,
                body: #"{"vehicleId": "v1", "activeTripsOnly": true}"#)
            guard case .array(let trips)? = try search.json()["trips"] else {
                Issue.record("no trips array")
                return
            }
            #expect(trips.count == 1)
            let busy = try await client.expect(.badRequest, .delete, "/v1/providers/p/vehicles/v1", as: server)
            #expect(busy.errorStatus == "FAILED_PRECONDITION")
            let illegal = try await client.expect(
                .badRequest, .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: server,
                body: Bodies.status("NEW"))
            #expect(illegal.errorStatus == "FAILED_PRECONDITION")
            #expect(illegal.errorMessage == "trip.tripStatus: cannot move from ENROUTE_TO_DROPOFF to NEW")
            try await client.expect(.ok, .patch, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: server, body: Bodies.status("COMPLETE"))
            try await client.expect(.ok, .delete, "/v1/providers/p/trips/t1", as: server)
            try await client.expect(.notFound, .delete, "/v1/providers/p/trips/t1", as: server)
        }
    }

    /// Bad input gets 400 with a message naming the field, and changes nothing.
    @Test(arguments: TestStoreKind.available) func badInputChangesNothing(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let server = harness.server
            let tripBefore = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: server).body
            let vehicleBefore = try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: server).body
            let cases: [(HTTPRequest.Method, String, String?, String)] = [
                (.put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", "{", "malformed JSON at byte 1"),
                (
                    .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation",
                    #"{"lastLocation": {"location": {"latitude": "x", "longitude": 0}}}"#,
                    "vehicle.lastLocation.location.latitude: expected a number"
                ),
                (
                    .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(91, 0),
                    "vehicle.lastLocation.location.latitude: 91.0 is out of range"
                ),
                (.put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(1, 181), "longitude: 181.0 is out of range"),
                (.put, "/v1/providers/p/vehicles/v1?updateMask=vehicleState", #"{"vehicleState": "ASLEEP"}"#, "unknown value 'ASLEEP'"),
                (.put, "/v1/providers/p/vehicles/v1", #"{"vehicleState": "OFFLINE"}"#, "query parameter 'updateMask' is required"),
                (.put, "/v1/providers/p/vehicles/v1?updateMask=name", #"{"name": "x"}"#, "'name' is maintained by the server"),
                (
                    .put, "/v1/providers/p/vehicles/v1?updateMask=vehicleState", #"{"vehicleState": "OFFLINE", "speedo": 3}"#,
                    "vehicle.speedo: unknown field"
                ),
                (
                    .put, "/v1/providers/p/trips/t1?updateMask=remainingDistanceMeters", #"{"remainingDistanceMeters": 3}"#,
                    "'remainingDistanceMeters' is maintained by the server"
                ),
                (
                    .put, "/v1/providers/p/trips/t1?updateMask=pickupPoint", #"{"pickupPoint": {"point": {"latitude": 0, "longitude": 1e400}}}"#,
                    "number out of range"
                ),
                (.put, "/v1/providers/p/trips/t1?updateMask=vehicleId", #"{"vehicleId": "a/b"}"#, "trip.vehicleId: must not contain '/'"),
                (.get, "/v1/providers/p/trips/t1?view=EVERYTHING", nil, "view: unknown value 'EVERYTHING'"),
                (.get, "/v1/providers/p/vehicles?pageSize=5000", nil, "pageSize"),
                (.post, "/v1/providers/p/trips?tripId=t1", nil, "the request body is empty"),
                (.post, "/v1/providers/p/trips", Bodies.trip(), "query parameter 'tripId' is required"),
                (.post, "/v1/providers/p/trips?tripId=x", #"{"tripType": "EXCLUSIVE"}"#, "trip.pickupPoint: required field is missing"),
            ]
            for (method, uri, body, fragment) in cases {
                let reply = try await client.send(method, uri, as: server, body: body)
                #expect(reply.status == .badRequest, "\(uri) \(body ?? ""): \(reply.text)")
                #expect(reply.errorStatus == "INVALID_ARGUMENT", "\(uri)")
                #expect(reply.errorMessage.contains(fragment), "\(uri): \(reply.errorMessage)")
            }
            let missing = try await client.expect(
                .notFound, .post, "/v1/providers/p/trips?tripId=t5", as: server, body: Bodies.trip(vehicle: "ghost"))
            #expect(missing.errorMessage == "trip.vehicleId: vehicle 'ghost' does not exist")
            #expect(try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: server).body == tripBefore)
            #expect(try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: server).body == vehicleBefore)
            try await client.expect(.notFound, .get, "/v1/providers/p/trips/t5", as: server)
        }
    }

    /// Oversized bodies and polylines are refused with the bound named.
    @Test(arguments: TestStoreKind.available) func bounds(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let huge = String(repeating: " ", count: 2 * 1024 * 1024 + 1) + "{}"
            let tooLarge = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=vehicleState", as: harness.server, body: huge)
            #expect(tooLarge.errorMessage.contains("larger than 2097152 bytes"))
            let attributes = (0...Limits.maximumAttributes).map { #"{"key": "k\#($0)", "stringValue": "v"}"# }.joined(separator: ",")
            let many = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: harness.server,
                body: #"{"attributes": [\#(attributes)]}"#)
            #expect(many.errorMessage.contains("at most \(Limits.maximumAttributes)"))
        }
    }

    /// Unknown paths answer 404 in the Google error shape.
    @Test(arguments: TestStoreKind.available) func unknownRoute(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let reply = try await client.expect(.notFound, .get, "/v1/nothing/here", as: harness.server)
            #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(reply.errorStatus == "UNKNOWN" || reply.errorStatus == "NOT_FOUND")
        }
    }

    /// A rider's view follows the vehicle: position, stops and ETA.
    @Test(arguments: TestStoreKind.available) func riderViewFollowsVehicle(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.driver("v1"),
                body: Bodies.location(37.395, -122.0))
            let view = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.consumer("t1")).json()
            #expect(view["lastLocation"]?["location"]?["latitude"] == .number(37.395, integer: nil))
            guard case .array(let stops)? = view["remainingWaypoints"] else {
                Issue.record("no remainingWaypoints")
                return
            }
            #expect(stops.count == 2)
            #expect(stops[0]["waypointType"] == .string("PICKUP_WAYPOINT_TYPE"))
            #expect(stops[0]["eta"] != nil && view["pickupTime"] != nil)
            #expect(view["attributes"] == nil && view["route"] == nil)
        }
    }
}

extension RouteTests {
    /// A view read, then changed by the vehicle, is read fresh: cached encodings follow the
    /// stored trip's revision.
    @Test(arguments: TestStoreKind.available) func viewsFollowChanges(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let rider = harness.consumer("t1")
            let first = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider).json()
            let again = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider).json()
            #expect(first == again)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: Bodies.location(37.398, -122.0))
            let moved = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider).json()
            #expect(moved["lastLocation"]?["location"]?["latitude"] == .number(37.398, integer: nil))
            let sdk = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?view=SDK", as: harness.server).json()
            #expect(sdk["view"] == .string("SDK") && moved["view"] == .string("JOURNEY_SHARING_V1S"))
        }
    }
}
