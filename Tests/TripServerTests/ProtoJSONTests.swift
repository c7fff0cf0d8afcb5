import Fleet
import Foundation
import Hummingbird
import JSON
import StoreVariants
import Testing
import TripModel
import TripModelTesting
import TripServer
import TripServerTesting

/// proto3 JSON as protobuf's own printers write it, and Fleet Engine's quirks: what official
/// clients send is accepted; what Fleet Engine refuses is refused, naming the field.
@Suite struct ProtoJSONTests {
    /// A vehicle as proto-plus's `to_json()` prints it (enums as numbers, every default
    /// printed, proto field names mixed in) is accepted and reads back with names.
    @Test(arguments: TestStoreKind.available) func printedWithDefaults(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let body = """
                {"vehicleState": 2, "lastLocation": {"location": {"latitude": 1.5, "longitude": 0.0}, "heading": 45, "locationSensor": 0,
                 "rawLocationSensor": 0, "supplementalLocationSensor": 0, "roadSnapped": false}, "name": "", "supported_trip_types": [1, 2],
                 "currentTrips": [], "pastLocations": [], "maximumCapacity": "4", "attributes": [], "vehicle_type": {"category": 3},
                 "route": [], "currentRouteSegment": "", "waypoints": [], "backToBackEnabled": false, "navigationStatus": 0,
                 "licensePlate": {"countryCode": "PT", "lastCharacter": ""}}
                """
            let created = try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: harness.server, body: body).json()
            #expect(created["vehicleState"] == .string("ONLINE"))
            #expect(created["supportedTripTypes"] == .array([.string("EXCLUSIVE"), .string("SHARED")]))
            #expect(created["vehicleType"]?["category"] == .string("TRUCK"))
            #expect(created["maximumCapacity"] == .number(4, integer: 4))
            #expect(created["lastLocation"]?["locationSensor"] == nil, "a zero enum is unset")
            #expect(
                created["lastLocation"]?["location"] == .object([("latitude", .number(1.5, integer: nil)), ("longitude", .number(0, integer: 0))]))
            #expect(created["navigationStatus"] == nil && created["currentRouteSegment"] == nil)
            #expect(created["licensePlate"] == .object([("countryCode", .string("PT"))]))
            let trip = try await client.expect(
                .ok, .post, "/v1/providers/p/trips?tripId=t1", as: harness.server,
                body: """
                    {"tripType": 1, "name": "", "vehicleId": "", "tripStatus": 0, "intermediateDestinations": [], "intermediateDestinationIndex": 0,
                     "pickup_point": {"point": {"latitude": 37.4}}, "numberOfPassengers": 0, "view": 0, "attributes": [],
                     "lastLocationSnappable": false, "route": [], "remainingWaypoints": [], "currentRouteSegment": ""}
                    """
            ).json()
            #expect(
                trip["tripType"] == .string("SHARED") && trip["tripStatus"] == .string("NEW") && trip["numberOfPassengers"] == .number(1, integer: 1))
            #expect(trip["pickupPoint"]?["point"] == .object([("latitude", .number(37.4, integer: nil)), ("longitude", .number(0, integer: 0))]))
            #expect(trip["vehicleId"] == nil)
        }
    }

    /// A vehicle whose state, trip types, flags and lists are at their zero values, as a
    /// proto3 client leaves them out or proto-plus prints them, is created as Fleet Engine
    /// creates it (absent means the default); only what Fleet Engine requires is refused, by name.
    @Test(arguments: TestStoreKind.available) func zeroValuesAreDefaults(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let zeros = """
                {"vehicleState": 0, "supportedTripTypes": [], "backToBackEnabled": false, "attributes": [],
                 "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}}
                """
            let created = try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: harness.server, body: zeros).json()
            #expect(created["name"] == .string("providers/p/vehicles/v1"))
            #expect(created["vehicleState"] == nil && created["supportedTripTypes"] == nil)
            #expect(created["backToBackEnabled"] != .bool(true))
            let absent = #"{"maximumCapacity": 2, "vehicleType": {"category": "TAXI"}}"#
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server, body: absent)
            for (body, field) in [
                (#"{"vehicleState": "ONLINE", "maximumCapacity": 0, "vehicleType": {"category": "AUTO"}}"#, "vehicle.maximumCapacity"),
                (#"{"vehicleState": "ONLINE", "maximumCapacity": 4}"#, "vehicle.vehicleType"),
            ] {
                let reply = try await client.expect(.badRequest, .post, "/v1/providers/p/vehicles?vehicleId=v3", as: harness.server, body: body)
                #expect(reply.errorMessage == "\(field): required field is missing", "\(reply.errorMessage)")
            }
            try await client.expect(.notFound, .get, "/v1/providers/p/vehicles/v3", as: harness.server)
        }
    }

    /// What proto3 JSON still refuses: a field named twice (once by each name), an unknown
    /// field (named by its path), an unknown enum value or number, a fraction in an int32.
    @Test(arguments: [
        (#"{"vehicleState": "ONLINE", "vehicle_state": "OFFLINE"}"#, "vehicle.vehicle_state: the field 'vehicleState' is given twice"),
        (#"{"lastLocation": {"location": {}, "colour": "red"}}"#, "vehicle.lastLocation.colour: unknown field"),
        (
            #"{"lastLocation": {"location": {}, "heading": 45.5}}"#,
            "vehicle.lastLocation.heading: expected an integer in -2147483648...2147483647, found 45.5"
        ),
        (
            #"{"lastLocation": {"location": {}, "speedKmph": 10.5}}"#,
            "vehicle.lastLocation.speedKmph: expected an integer in -2147483648...2147483647, found 10.5"
        ),
        (#"{"lastLocation": {"location": {}, "flpHeadingDegrees": 1e10}}"#, "vehicle.lastLocation.flpHeadingDegrees: expected an integer"),
        (#"{"vehicleState": 7}"#, "vehicle.vehicleState: unknown value 7; expected one of 1 (OFFLINE), 2 (ONLINE)"),
        (#"{"supportedTripTypes": ["UNKNOWN_TRIP_TYPE"]}"#, "vehicle.supportedTripTypes[0]: 'UNKNOWN_TRIP_TYPE' means unset"),
        (#"{"vehicleType": {"category": "UNKNOWN"}}"#, "vehicle.vehicleType.category: 'UNKNOWN' means unset"),
        (
            #"{"deviceSettings": {"batteryInfo": {"batteryStatus": "FULL"}}}"#,
            "vehicle.deviceSettings.batteryInfo.batteryStatus: unknown value 'FULL'"
        ),
    ])
    func refused(_ body: String, _ message: String) async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: harness.server, body: Bodies.vehicle)
            let reply = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=vehicleState", as: harness.server, body: body)
            #expect(reply.errorStatus == "INVALID_ARGUMENT")
            #expect(reply.errorMessage.hasPrefix(message), "\(reply.errorMessage)")
        }
    }

    /// A deprecated field and its replacement sent together must agree: then either is
    /// taken, else INVALID_ARGUMENT naming both.
    @Test(arguments: [
        ("latlngAccuracy", "5", "horizontalAccuracy", "6"), ("headingAccuracy", "5", "bearingAccuracy", "6"),
        ("altitudeAccuracy", "5", "verticalAccuracy", "6"), ("speed", "10", "speedKmph", "40"), ("isRoadSnapped", "false", "roadSnapped", "true"),
    ])
    func deprecatedTwins(_ field: String, _ value: String, _ deprecated: String, _ other: String) async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: harness.server, body: Bodies.vehicle)
            let location = #""location": {"latitude": 1, "longitude": 2}"#
            let clash = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: #"{"lastLocation": {\#(location), "\#(field)": \#(value), "\#(deprecated)": \#(other)}}"#)
            #expect(clash.errorMessage.hasPrefix("vehicle.lastLocation.\(deprecated): '\(deprecated)' ("), "\(clash.errorMessage)")
            #expect(clash.errorMessage.contains("is the deprecated form of '\(field)'"))
            let agreeing = deprecated == "speedKmph" ? "36" : deprecated == "roadSnapped" ? "true" : value
            let fieldValue = field == "isRoadSnapped" ? "true" : value
            let both = try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: #"{"lastLocation": {\#(location), "\#(field)": \#(fieldValue), "\#(deprecated)": \#(agreeing)}}"#
            ).json()
            #expect(both["lastLocation"]?[field] != nil && both["lastLocation"]?[deprecated] == nil)
        }
    }

    /// The other deprecated twins: an attribute's `value`, a stop's `stopTime`, the
    /// vehicle's `route`, a waypoint's two forms of its path.
    @Test func otherDeprecatedTwins() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            let attribute = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: s,
                body: #"{"attributes": [{"key": "a", "stringValue": "x", "value": "y"}]}"#)
            #expect(
                attribute.errorMessage
                    == "vehicle.attributes[0].value: 'value' (y) is the deprecated form of 'stringValue' (x); send one, or both with the same value")
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: s,
                body: #"{"attributes": [{"key": "a", "stringValue": "x", "value": "x"}]}"#)
            let tripValue = try await client.expect(
                .badRequest, .put, "/v1/providers/p/trips/t1?updateMask=attributes", as: s, body: #"{"attributes": [{"key": "a", "value": "x"}]}"#)
            #expect(tripValue.errorMessage == "trip.attributes[0].value: unknown field", "TripAttribute never had `value`")
            let stop = try await client.expect(
                .badRequest, .put, "/v1/providers/p/trips/t1?updateMask=actualPickupPoint", as: s,
                body: #"{"actualPickupPoint": {"point": {"latitude": 1}, "timestamp": "2025-02-05T17:00:00Z", "stopTime": "2025-02-05T17:01:00Z"}}"#)
            #expect(
                stop.errorMessage.hasPrefix(
                    "trip.actualPickupPoint.stopTime: 'stopTime' (2025-02-05T17:01:00Z) is the deprecated form of 'timestamp'"))
            let route = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=waypoints", as: s,
                body: """
                    {"waypoints": [{"location": {"point": {"latitude": 37.4, "longitude": -122}}, "tripId": "t1", "waypointType": "PICKUP_WAYPOINT_TYPE"}],
                     "route": [{"point": {"latitude": 37.42, "longitude": -122.01}, "tripId": "t1", "terminalLocationType": "DROP_OFF_WAYPOINT_TYPE"}]}
                    """)
            #expect(
                route.errorMessage.hasPrefix("vehicle.route: 'route' (1 other stops) is the deprecated form of 'waypoints'"), "\(route.errorMessage)")
            let path = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegmentEndPoint", as: s,
                body:
                    #"{"currentRouteSegmentEndPoint": {"encodedPathToWaypoint": "_p~iF~ps|U", "pathToWaypoint": [{"latitude": 1, "longitude": 1}]}}"#)
            #expect(path.errorMessage.hasPrefix("vehicle.currentRouteSegmentEndPoint.pathToWaypoint: 'pathToWaypoint' and 'encodedPathToWaypoint'"))
        }
    }

    /// A stale `intermediateDestinationsVersion` (the stops changed since the client read
    /// them) fails a change of index or status: FAILED_PRECONDITION; the current one passes.
    @Test(arguments: TestStoreKind.available) func staleIntermediateDestinationsVersion(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            let stops = #"{"intermediateDestinations": [{"point": {"latitude": 37.41, "longitude": -122.005}}]}"#
            let first = try await client.expect(.ok, .put, "/v1/providers/p/trips/t1?updateMask=intermediateDestinations", as: s, body: stops).json()
            guard case .string(let seen)? = first["intermediateDestinationsVersion"] else {
                Issue.record("no version")
                return
            }
            clock.advance(by: 5)
            try await client.expect(
                .ok, .put, "/v1/providers/p/trips/t1?updateMask=intermediateDestinations", as: s,
                body: #"{"intermediateDestinations": [{"point": {"latitude": 37.415, "longitude": -122.005}}]}"#)
            let stale = try await client.expect(
                .badRequest, .put, "/v1/providers/p/trips/t1?updateMask=intermediateDestinationIndex", as: s,
                body: #"{"intermediateDestinationIndex": 0, "intermediateDestinationsVersion": "\#(seen)"}"#)
            #expect(stale.errorStatus == "FAILED_PRECONDITION")
            #expect(stale.errorMessage.hasPrefix("trip.intermediateDestinationsVersion: \(seen) is not the current version"))
            let now = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: s).json()
            guard case .string(let current)? = now["intermediateDestinationsVersion"] else { return }
            try await client.expect(
                .ok, .put, "/v1/providers/p/trips/t1?updateMask=intermediateDestinationIndex", as: s,
                body: #"{"intermediateDestinationIndex": 0, "intermediateDestinationsVersion": "\#(current)"}"#)
        }
    }

    /// Unknown routes are NOT_FOUND in the error model; a known path asked with another
    /// method is 405 naming the methods it takes; an unknown query parameter is
    /// INVALID_ARGUMENT naming it, on every kind of route; proto field names work as
    /// parameters.
    @Test func routesAndParameters() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            let unknown = try await client.expect(.notFound, .get, "/v1/providers/p/lorries/l1", as: s)
            #expect(unknown.errorStatus == "NOT_FOUND" && unknown.errorMessage == "no such resource: GET /v1/providers/p/lorries/l1")
            let wrongMethod = try await client.send(.post, "/v1/providers/p/trips/t1", as: s, body: "{}")
            #expect(wrongMethod.status == .methodNotAllowed && wrongMethod.errorStatus == "UNIMPLEMENTED")
            #expect(wrongMethod.headers[.allow] == "DELETE, GET, PATCH, PUT")
            let wrongVerb = try await client.send(.get, "/v1/providers/p/billableTrips/t1:report", as: s)
            #expect(wrongVerb.status == .methodNotAllowed && wrongVerb.headers[.allow] == "POST")
            // A custom method's path is its own, not a vehicle named `v1:updateAttributes`.
            let custom = try await client.send(.options, "/v1/providers/p/vehicles/v1:updateAttributes", as: s)
            #expect(custom.status == .methodNotAllowed && custom.headers[.allow] == "POST", "\(custom.headers)")
            for uri in [
                "/v1/providers/p/trips/t1?veiw=SDK", "/v1/providers/p/vehicles/v1?pageSize=1", "/v1/providers/p/trips/t1/preview.png?colour=red",
                "/v1/styles?x=1", "/healthz?verbose=1",
            ] {
                let reply = try await client.send(.get, uri, as: s)
                #expect(reply.status == .badRequest, "\(uri)")
                let name = uri.split(separator: "?")[1].split(separator: "=")[0]
                #expect(reply.errorMessage.hasPrefix("\(name): unknown query parameter"), "\(uri): \(reply.errorMessage)")
            }
            try await client.expect(.ok, .put, "/v1/providers/p/trips/t1?update_mask=trip_status", as: s, body: Bodies.status("ENROUTE_TO_PICKUP"))
        }
    }

    /// The vehicle's position when a trip's status changes records where and when it
    /// arrived at and left each stop, unless the provider sent them.
    @Test(arguments: TestStoreKind.available) func arrivalPoints(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: s, body: Bodies.vehicle)
            try await client.expect(
                .ok, .post, "/v1/providers/p/trips?tripId=t1", as: s,
                body: """
                    {"tripType": "EXCLUSIVE", "vehicleId": "v1", "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
                     "intermediateDestinations": [{"point": {"latitude": 37.41, "longitude": -122.005}}],
                     "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}}
                    """)
            func move(_ lat: Double, _ lng: Double, then status: String) async throws -> JSONValue {
                clock.advance(by: 60)
                try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: s, body: Bodies.location(lat, lng))
                return try await client.expect(.ok, .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: s, body: Bodies.status(status)).json()
            }
            _ = try await move(37.395, -122.0, then: "ENROUTE_TO_PICKUP")
            let atPickup = try await move(37.4001, -122.0001, then: "ARRIVED_AT_PICKUP")
            #expect(
                atPickup["actualPickupArrivalPoint"]
                    == .object([
                        ("point", .object([("latitude", .number(37.4001, integer: nil)), ("longitude", .number(-122.0001, integer: nil))])),
                        ("timestamp", .string(epoch.adding(seconds: 120).rfc3339)),
                    ]))
            _ = try await move(37.4002, -122.0002, then: "ENROUTE_TO_INTERMEDIATE_DESTINATION")
            let atStop = try await move(37.41, -122.005, then: "ARRIVED_AT_INTERMEDIATE_DESTINATION")
            #expect(atStop["actualIntermediateDestinationArrivalPoints"]?.arrayCount == 1)
            #expect(atStop["actualIntermediateDestinations"] == nil)
            let leaving = try await move(37.4101, -122.0051, then: "ENROUTE_TO_DROPOFF")
            #expect(leaving["actualIntermediateDestinations"]?.arrayCount == 1)
            #expect(
                leaving["actualIntermediateDestinations"]
                    == .array([
                        .object([
                            ("point", .object([("latitude", .number(37.4101, integer: nil)), ("longitude", .number(-122.0051, integer: nil))])),
                            ("timestamp", .string(epoch.adding(seconds: 300).rfc3339)),
                        ])
                    ]))
            #expect(leaving["actualPickupPoint"] != nil)
        }
    }

    /// `pastLocations` join the vehicle's location history, oldest first and before the
    /// location they came with; they are not kept on the vehicle.
    @Test(arguments: TestStoreKind.available) func pastLocationsJoinTheHistory(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let s = harness.server
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: s, body: Bodies.vehicle)
            let updated = try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation,pastLocations", as: s,
                body: """
                    {"lastLocation": {"location": {"latitude": 37.393, "longitude": -122.0}},
                     "pastLocations": [{"location": {"latitude": 37.392, "longitude": -122.0}, "updateTime": "2025-02-05T17:02:20Z"},
                                       {"location": {"latitude": 37.391, "longitude": -122.0}, "updateTime": "2025-02-05T17:02:10Z"}]}
                    """
            ).json()
            #expect(updated["pastLocations"] == nil)
            let history = try await harness.app.fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
            #expect(history.compactMap(\.location?.latitude) == [37.39, 37.391, 37.392, 37.393])
            let tooFar = try await client.expect(
                .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=pastLocations", as: s,
                body: #"{"pastLocations": [{"location": {"latitude": 91, "longitude": 0}}]}"#)
            #expect(tooFar.errorMessage == "vehicle.pastLocations[0].location.latitude: 91.0 is out of range [-90, 90]")
        }
    }
}

extension JSONValue {
    /// The number of elements of an array, or nil.
    var arrayCount: Int? {
        if case .array(let elements) = self { return elements.count }
        return nil
    }
}
