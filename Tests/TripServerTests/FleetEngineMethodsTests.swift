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

/// Fleet Engine's methods and request parameters beyond create, read, update and delete:
/// UpdateVehicleAttributes, ReportBillableTrip, GetTrip's and GetVehicle's versions and route
/// formats, SearchTrips' fields.
@Suite struct FleetEngineMethodsTests {
    static let route = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"

    /// UpdateVehicleAttributes merges by key (a key present is replaced, a new one added) and
    /// answers the whole list; the vehicle keeps it. Unknown vehicles are NOT_FOUND, drivers
    /// and riders may not, a list past 100 or an attribute with two values is refused.
    @Test(arguments: TestStoreKind.available) func updateVehicleAttributes(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let s = harness.server
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: s, body: Bodies.vehicle)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: s,
                body: #"{"attributes": [{"key": "colour", "stringValue": "red"}, {"key": "seats", "numberValue": 4}]}"#)
            let merged = try await client.expect(
                .ok, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: s,
                body: #"{"attributes": [{"key": "colour", "stringValue": "black"}, {"key": "pets", "boolValue": true}]}"#)
            let expected = try JSONParser.parse(
                Array(
                    #"{"attributes": [{"key": "colour", "stringValue": "black"}, {"key": "seats", "numberValue": 4}, {"key": "pets", "boolValue": true}]}"#
                        .utf8))
            #expect(try merged.json() == expected)
            let vehicle = try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: s).json()
            #expect(vehicle["attributes"] == expected["attributes"])

            let missing = try await client.expect(
                .notFound, .post, "/v1/providers/p/vehicles/nobody:updateAttributes", as: s,
                body: #"{"attributes": [{"key": "a", "boolValue": true}]}"#)
            #expect(missing.errorStatus == "NOT_FOUND" && missing.errorMessage == "vehicle 'nobody' does not exist")
            let driver = try await client.expect(
                .forbidden, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: harness.driver("v1"),
                body: #"{"attributes": [{"key": "a", "boolValue": true}]}"#)
            #expect(driver.errorStatus == "PERMISSION_DENIED")
            let empty = try await client.expect(
                .badRequest, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: s, body: #"{"attributes": []}"#)
            #expect(empty.errorMessage.hasPrefix("attributes: required field is missing"))
            let twoValues = try await client.expect(
                .badRequest, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: s,
                body: #"{"attributes": [{"key": "a", "boolValue": true, "numberValue": 1}]}"#)
            #expect(twoValues.errorMessage == "attributes[0]: exactly one of stringValue, boolValue, numberValue must be set")
            let many = (0..<98).map { #"{"key": "k\#($0)", "boolValue": true}"# }.joined(separator: ", ")
            let tooMany = try await client.expect(
                .badRequest, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: s, body: #"{"attributes": [\#(many)]}"#)
            #expect(tooMany.errorMessage == "attributes: has 101 entries; at most 100 are allowed")
        }
    }

    /// ReportBillableTrip records a trip once: a repeat succeeds and keeps the first report;
    /// the operator reads the records in report order. An unknown trip is NOT_FOUND, a report
    /// without a country INVALID_ARGUMENT, a rider's token PERMISSION_DENIED.
    @Test(arguments: TestStoreKind.available) func reportBillableTrip(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t2", as: s, body: Bodies.trip())
            let first = try await client.expect(
                .ok, .post, "/v1/providers/p/billableTrips/t1:report", as: s,
                body: #"{"countryCode": "PT", "platform": "ANDROID", "relatedIds": ["r1", "r2"], "solutionType": 1}"#)
            #expect(first.text == "{}")
            clock.advance(by: 5)
            try await client.expect(.ok, .post, "/v1/providers/p/billableTrips/t1:report", as: s, body: #"{"countryCode": "ES"}"#)
            try await client.expect(.ok, .post, "/v1/providers/p/billableTrips/t2:report", as: s, body: #"{"country_code": "FR", "platform": "WEB"}"#)

            let records = try await harness.app.fleet.billableTrips(since: epoch)
            #expect(records.map(\.name) == ["providers/p/billableTrips/t1", "providers/p/billableTrips/t2"])
            #expect(records.first?.reportTime == epoch)
            #expect(
                records.first?.report
                    == BillableTripReport(
                        countryCode: "PT", platform: .android, relatedIds: ["r1", "r2"], solutionType: .onDemandRidesharingAndDeliveries))
            #expect(records.last?.report == BillableTripReport(countryCode: "FR", platform: .web))
            #expect(try await harness.app.fleet.billableTrips(since: epoch.adding(seconds: 1)).map(\.name) == ["providers/p/billableTrips/t2"])
            let page = try await harness.app.fleet.billableTrips(since: epoch, limit: 1)
            #expect(
                try await harness.app.fleet.billableTrips(since: epoch, after: page.last, limit: 1).map(\.name) == ["providers/p/billableTrips/t2"])

            let unknown = try await client.expect(
                .notFound, .post, "/v1/providers/p/billableTrips/nope:report", as: s, body: #"{"countryCode": "PT"}"#)
            #expect(unknown.errorStatus == "NOT_FOUND" && unknown.errorMessage == "trip 'nope' does not exist")
            let noCountry = try await client.expect(
                .badRequest, .post, "/v1/providers/p/billableTrips/t1:report", as: s, body: #"{"platform": "IOS"}"#)
            #expect(noCountry.errorMessage == "countryCode: required field is missing")
            try await client.expect(
                .forbidden, .post, "/v1/providers/p/billableTrips/t1:report", as: harness.consumer("t1"), body: #"{"countryCode": "PT"}"#)
        }
    }

    /// GetVehicle returns the route segment and the waypoints only when they changed after
    /// the versions the caller gives.
    @Test(arguments: TestStoreKind.available) func getVehicleVersions(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment", as: s, body: #"{"currentRouteSegment": "\#(Self.route)"}"#)
            let full = try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1", as: s).json()
            guard case .string(let routeVersion)? = full["currentRouteSegmentVersion"], case .string(let waypointsVersion)? = full["waypointsVersion"]
            else {
                Issue.record("no versions in \(full)")
                return
            }
            let current = try await client.expect(
                .ok, .get, "/v1/providers/p/vehicles/v1?currentRouteSegmentVersion=\(routeVersion)&waypoints_version=\(waypointsVersion)", as: s
            ).json()
            #expect(current["currentRouteSegment"] == nil && current["waypoints"] == nil)
            #expect(current["currentRouteSegmentVersion"] == .string(routeVersion), "the versions themselves are always there")
            let older = try await client.expect(
                .ok, .get, "/v1/providers/p/vehicles/v1?currentRouteSegmentVersion=2025-01-01T00:00:00Z&waypointsVersion=2025-01-01T00:00:00Z", as: s
            ).json()
            #expect(older["currentRouteSegment"] == .string(Self.route) && older["waypoints"] != nil)
            let bad = try await client.expect(.badRequest, .get, "/v1/providers/p/vehicles/v1?waypointsVersion=yesterday", as: s)
            #expect(bad.errorMessage.hasPrefix("waypointsVersion: 'yesterday' is not an RFC 3339 timestamp"))
        }
    }

    /// GetTrip's view (by name or number), versions and route format: a field comes only when
    /// it changed after the version given, routes as points or encoded polylines.
    @Test(arguments: TestStoreKind.available) func getTripVersionsAndFormats(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            // The vehicle at the start of its route segment, which ends at the pickup: the
            // trip's first leg is that segment, with its traffic.
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: s, body: Bodies.vehicle)
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: s, body: Bodies.location(38.5, -120.2))
            try await client.expect(
                .ok, .post, "/v1/providers/p/trips?tripId=t1", as: s,
                body: """
                    {"tripType": "EXCLUSIVE", "vehicleId": "v1", "pickupPoint": {"point": {"latitude": 43.252, "longitude": -126.453}},
                     "dropoffPoint": {"point": {"latitude": 43.3, "longitude": -126.5}}}
                    """)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegment,currentRouteSegmentTraffic", as: s,
                body:
                    #"{"currentRouteSegment": "\#(Self.route)", "currentRouteSegmentTraffic": {"trafficRendering": {"roadStretch": [{"style": "TRAFFIC_JAM", "offsetMeters": 0, "lengthMeters": 50}]}}}"#
            )
            let full = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: s).json()
            var versions: [String: String] = [:]
            for name in [
                "currentRouteSegmentVersion", "remainingWaypointsVersion", "currentRouteSegmentTrafficVersion", "remainingWaypointsRouteVersion",
            ] {
                guard case .string(let version)? = full[name] else {
                    Issue.record("\(name) missing from \(full)")
                    return
                }
                versions[name] = version
            }
            #expect(full["view"] == .string("SDK") && full["route"] != nil && full["currentRouteSegment"] != nil)
            #expect(full["currentRouteSegmentTraffic"] != nil && full["lastLocationSnappable"] == .bool(true))
            let query = versions.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "&")
            let same = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?\(query)", as: s).json()
            #expect(same["route"] == nil && same["currentRouteSegment"] == nil && same["currentRouteSegmentTraffic"] == nil)
            #expect(same["remainingWaypoints"] == nil)
            let paths = try await client.expect(
                .ok, .get, "/v1/providers/p/trips/t1?remainingWaypointsRouteVersion=\(versions["remainingWaypointsRouteVersion"]!)", as: s
            ).json()
            guard case .array(let waypoints)? = paths["remainingWaypoints"], let first = waypoints.first else {
                Issue.record("no waypoints in \(paths)")
                return
            }
            #expect(first["encodedPathToWaypoint"] == nil && first["trafficToWaypoint"] == nil && first["eta"] != nil)

            // A location update moves the vehicle along its route: the paths are trimmed, not
            // changed, so their versions stay.
            clock.advance(by: 10)
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: s, body: Bodies.location(38.6, -120.2341))
            let moved = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: s).json()
            #expect(moved["remainingWaypointsRouteVersion"] == .string(versions["remainingWaypointsRouteVersion"]!))
            #expect(moved["currentRouteSegmentTrafficVersion"] == .string(versions["currentRouteSegmentTrafficVersion"]!))
            // New traffic moves both.
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=currentRouteSegmentTraffic", as: s,
                body: #"{"currentRouteSegmentTraffic": {"trafficRendering": {"roadStretch": []}}}"#)
            let retrafficked = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?\(query)", as: s).json()
            #expect(retrafficked["currentRouteSegmentTrafficVersion"] != .string(versions["currentRouteSegmentTrafficVersion"]!))
            #expect(retrafficked["route"] == nil, "the route segment itself did not change")

            let points = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?routeFormatType=LAT_LNG_LIST_TYPE", as: s).json()
            #expect(points["currentRouteSegment"] == nil && points["route"] != nil)
            if case .array(let stops)? = points["remainingWaypoints"], let stop = stops.first {
                #expect(stop["encodedPathToWaypoint"] == nil && stop["pathToWaypoint"] != nil)
            }
            let encoded = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?route_format_type=2&view=1", as: s).json()
            #expect(encoded["currentRouteSegment"] != nil && encoded["route"] == nil && encoded["view"] == .string("SDK"))
            let rider = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?view=2", as: harness.consumer("t1")).json()
            #expect(rider["view"] == .string("JOURNEY_SHARING_V1S"))
            let badView = try await client.expect(.badRequest, .get, "/v1/providers/p/trips/t1?view=SIDEWAYS", as: s)
            #expect(badView.errorMessage.hasPrefix("view: unknown value 'SIDEWAYS'"))
            let badFormat = try await client.expect(.badRequest, .get, "/v1/providers/p/trips/t1?routeFormatType=7", as: s)
            #expect(badFormat.errorMessage.hasPrefix("routeFormatType: unknown value '7'"))
        }
    }

    /// SearchTrips reads every field: vehicle, unfinished only, pages, and minimumStaleness
    /// (only trips not updated for that long).
    @Test(arguments: TestStoreKind.available) func searchTripsFields(_ store: TestStoreKind) async throws {
        let clock = ManualClock(epoch)
        let harness = try await Harness(store, clock: clock.wallClock)
        try await harness.test { client in
            let s = harness.server
            try await harness.seed(client)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t2", as: s, body: Bodies.trip())
            clock.advance(by: 600)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t3", as: s, body: Bodies.trip())
            try await client.expect(.ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: s, body: Bodies.location(37.395, -122.0))
            func ids(_ body: String) async throws -> (ids: [String], next: String?) {
                let reply = try await client.expect(.ok, .post, "/v1/providers/p/trips:search", as: s, body: body).json()
                guard case .array(let trips)? = reply["trips"] else { return ([], nil) }
                let names = trips.compactMap { trip -> String? in
                    if case .string(let name)? = trip["name"] { return String(name.split(separator: "/").last ?? "") }
                    return nil
                }
                if case .string(let token)? = reply["nextPageToken"] { return (names, token) }
                return (names, nil)
            }
            #expect(try await ids(#"{"vehicleId": "v1"}"#).ids == ["t1"])
            #expect(try await ids(#"{"activeTripsOnly": true}"#).ids == ["t1", "t2", "t3"])
            let first = try await ids(#"{"pageSize": 2}"#)
            #expect(first.ids == ["t1", "t2"])
            #expect(try await ids(#"{"pageSize": 2, "pageToken": "\#(first.next ?? "")"}"#).ids == ["t3"])
            #expect(try await ids(#"{"minimumStaleness": "300s"}"#).ids == ["t2"], "t1's vehicle reported since; t3 is new")
            #expect(try await ids(#"{"minimumStaleness": "3600s"}"#).ids == [])
            let negative = try await client.expect(.badRequest, .post, "/v1/providers/p/trips:search", as: s, body: #"{"minimumStaleness": "-5s"}"#)
            #expect(negative.errorMessage == "minimumStaleness: must not be negative")
        }
    }
}
