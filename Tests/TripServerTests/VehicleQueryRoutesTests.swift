import Foundation
import Hummingbird
import JSON
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

/// ListVehicles and SearchVehicles over REST: query parameters under their proto3 JSON (or
/// proto) names, repeated and dotted as Google's HTTP mapping writes them; the answers'
/// fields.
@Suite struct VehicleQueryRoutesTests {
    private static func vehicle(_ category: String, _ color: String, latitude: Double) -> String {
        """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
         "vehicleType": {"category": "\(category)"}, "attributes": [{"key": "color", "stringValue": "\(color)"}],
         "lastLocation": {"location": {"latitude": \(latitude), "longitude": -122.0}}}
        """
    }

    private static func names(_ reply: Client.Reply, _ field: String = "vehicles") throws -> [String] {
        guard case .array(let items)? = try reply.json()[field] else { return [] }
        return items.compactMap {
            if case .string(let name)? = ($0["vehicle"] ?? $0)["name"] { return String(name.split(separator: "/").last ?? "") }
            return nil
        }
    }

    @Test(arguments: TestStoreKind.available) func listVehicles(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let server = harness.server
            for (id, category, color, latitude) in [
                ("a", "AUTO", "black", 37.40), ("b", "TAXI", "black", 37.41), ("c", "TAXI", "white", 37.42), ("d", "TRUCK", "black", 37.43),
            ] {
                try await client.expect(
                    .ok, .post, "/v1/providers/p/vehicles?vehicleId=\(id)", as: server, body: Self.vehicle(category, color, latitude: latitude))
            }
            let filter = #"attributes.color="black""#.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let first = try await client.expect(
                .ok, .get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO&vehicleTypeCategories=TAXI&filter=\(filter)&pageSize=1",
                as: server)
            #expect(try Self.names(first) == ["a"])
            #expect(try first.json()["totalSize"] == .string("2"), "int64 as a string")
            guard case .string(let token)? = try first.json()["nextPageToken"] else {
                Issue.record("no nextPageToken: \(first.text)")
                return
            }
            let second = try await client.expect(
                .ok, .get,
                "/v1/providers/p/vehicles?vehicle_type_categories=AUTO&vehicle_type_categories=TAXI&filter=\(filter)"
                    + "&page_size=1&page_token=\(token)", as: server)
            #expect(try Self.names(second) == ["b"])
            #expect(try second.json()["nextPageToken"] == nil)
            let boxed = try await client.expect(
                .ok, .get,
                "/v1/providers/p/vehicles?vehicleTypeCategories=TAXI&vehicleTypeCategories=TRUCK&viewport.low.latitude=37.415"
                    + "&viewport.low.longitude=-122.1&viewport.high.latitude=37.5&viewport.high.longitude=-121.9&requiredAttributes=color:black",
                as: server)
            #expect(try Self.names(boxed) == ["d"])
            #expect(try boxed.json()["totalSize"] == .string("1"))

            let refused: [(String, String)] = [
                ("", "vehicleTypeCategories: required field is missing"),
                ("?vehicleTypeCategories=AUTO&colour=red", "colour: unknown query parameter"),
                ("?vehicleTypeCategories=CAR", "vehicleTypeCategories: unknown value 'CAR'"),
                ("?vehicleTypeCategories=AUTO&filter=attributes.seats%3D4", "filter: at position 18: attributes compare as strings"),
                ("?vehicleTypeCategories=AUTO&filter=attributes.a%3D%22b%22&requiredAttributes=a:b", "filter: cannot be combined"),
                ("?vehicleTypeCategories=AUTO&viewport.low.latitude=1", "viewport.low.longitude: required field is missing"),
                ("?vehicleTypeCategories=AUTO&maximumStaleness=5m", "maximumStaleness: '5m' is not a duration"),
            ]
            for (query, fragment) in refused {
                let reply = try await client.expect(.badRequest, .get, "/v1/providers/p/vehicles" + query, as: server)
                #expect(reply.errorStatus == "INVALID_ARGUMENT")
                #expect(reply.errorMessage.contains(fragment), "\(query): \(reply.errorMessage)")
            }
        }
    }

    @Test(arguments: TestStoreKind.available) func searchVehicles(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let server = harness.server
            for (id, color, latitude) in [("near", "white", 37.401), ("black", "black", 37.405), ("far", "black", 37.6)] {
                try await client.expect(
                    .ok, .post, "/v1/providers/p/vehicles?vehicleId=\(id)", as: server, body: Self.vehicle("AUTO", color, latitude: latitude))
            }
            let body = """
                {"pickupPoint": {"point": {"latitude": 37.4, "longitude": -122}},
                 "dropoffPoint": {"point": {"latitude": 37.41, "longitude": -122}}, "pickupRadiusMeters": 2000, "count": 5,
                 "minimumCapacity": 1, "tripTypes": ["EXCLUSIVE"], "vehicleTypes": [{"category": "AUTO"}],
                 "orderBy": "COST", "filter": "attributes.color = \\"black\\"", "maximumStaleness": "60s"}
                """
            let reply = try await client.expect(.ok, .post, "/v1/providers/p/vehicles:search", as: server, body: body)
            #expect(try Self.names(reply, "matches") == ["black"])
            guard case .array(let matches)? = try reply.json()["matches"], case .object(let match)? = matches.first else {
                Issue.record("no match: \(reply.text)")
                return
            }
            #expect(
                Set(match.map(\.key)) == [
                    "vehicle", "vehiclePickupEta", "vehiclePickupDistanceMeters", "vehiclePickupStraightLineDistanceMeters",
                    "vehicleDropoffEta", "vehiclePickupToDropoffDistanceMeters", "tripType", "vehicleTripsWaypoints", "vehicleMatchType",
                    "requestedOrderedBy", "orderedBy",
                ])
            #expect(matches[0]["vehicleMatchType"] == .string("EXCLUSIVE") && matches[0]["orderedBy"] == .string("COST"))
            let refused = try await client.expect(
                .badRequest, .post, "/v1/providers/p/vehicles:search", as: server,
                body: body.replacingOccurrences(
                    of: #""orderBy": "COST""#, with: #""orderBy": "COST", "requiredAttributes": [{"key": "color", "stringValue": "black"}]"#))
            #expect(refused.errorMessage.hasPrefix("filter: cannot be combined"))
        }
    }
}
