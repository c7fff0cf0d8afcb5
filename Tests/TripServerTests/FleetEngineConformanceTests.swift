import Foundation
import Hummingbird
import JSON
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

/// Every field of Fleet Engine's v1 request messages (FleetEngineFieldTable) is accepted and
/// read back, on every store (issue 31's conformance test).
@Suite struct FleetEngineConformanceTests {
    /// Each resource field of the table, sent as Fleet Engine's REST mapping sends it, reads
    /// back as the table says.
    @Test(arguments: TestStoreKind.available) func resourceFields(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            for (n, row) in FieldCase.all.enumerated() {
                switch row.action {
                case .vehicle(let mask, let body, let expected, let withTrip):
                    try await Self.checkVehicle(client, harness, n: n, row: row, mask: mask, body: body, expected: expected, withTrip: withTrip)
                case .trip(let mask, let body, let expected):
                    try await Self.checkTrip(client, harness, n: n, row: row, mask: mask, body: body, expected: expected)
                }
            }
        }
    }

    static func checkVehicle(
        _ client: Client, _ harness: Harness, n: Int, row: FieldCase, mask: String?, body: String, expected: String?, withTrip: Bool
    ) async throws {
        let id = "v\(n)"
        let trip = "t\(n)"
        let values = ["{id}": id, "{trip}": trip, "{vehicle}": id]
        let sent = try JSONParser.parse(Array(Self.fill(body, values).utf8))
        if let mask {
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=\(id)", as: harness.server, body: Bodies.vehicle)
            if withTrip {
                try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=\(trip)", as: harness.server, body: Bodies.trip(vehicle: id))
            }
            let reply = try await client.send(
                .put, "/v1/providers/p/vehicles/\(id)?updateMask=\(mask)", as: harness.server, body: Self.fill(body, values))
            #expect(reply.status == .ok, "\(row.field): \(reply.text)")
        } else {
            let merged = Self.merge(try JSONParser.parse(Array(Bodies.vehicle.utf8)), sent)
            let reply = try await client.send(
                .post, "/v1/providers/p/vehicles?vehicleId=\(id)", as: harness.server,
                body: String(decoding: try JSONCoding.encode(merged), as: UTF8.self))
            #expect(reply.status == .ok, "\(row.field): \(reply.text)")
        }
        let read = try await client.expect(.ok, .get, "/v1/providers/p/vehicles/\(id)", as: harness.server).json()
        let wanted = try expected.map { try JSONParser.parse(Array(Self.fill($0, values).utf8)) } ?? sent
        if let problem = Self.mismatch(read, wanted, path: "vehicle") { Issue.record("\(row.field): \(problem)") }
    }

    static func checkTrip(_ client: Client, _ harness: Harness, n: Int, row: FieldCase, mask: String?, body: String, expected: String?) async throws {
        let id = "t\(n)"
        let vehicle = "tv\(n)"
        try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=\(vehicle)", as: harness.server, body: Bodies.vehicle)
        let base = try JSONParser.parse(
            Array(
                #"""
                {"tripType": "EXCLUSIVE", "vehicleId": "\#(vehicle)", "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
                 "intermediateDestinations": [{"point": {"latitude": 37.41, "longitude": -122.005}}],
                 "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}}
                """#.utf8))
        var values = ["{id}": id, "{vehicle}": vehicle]
        if let mask {
            let created = try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=\(id)", as: harness.server, body: Self.text(base))
            if case .string(let version)? = try created.json()["intermediateDestinationsVersion"] {
                values["{intermediateDestinationsVersion}"] = version
            }
            let reply = try await client.send(
                .put, "/v1/providers/p/trips/\(id)?updateMask=\(mask)", as: harness.server, body: Self.fill(body, values))
            #expect(reply.status == .ok, "\(row.field): \(reply.text)")
        } else {
            let merged = Self.merge(base, try JSONParser.parse(Array(Self.fill(body, values).utf8)))
            let reply = try await client.send(.post, "/v1/providers/p/trips?tripId=\(id)", as: harness.server, body: Self.text(merged))
            #expect(reply.status == .ok, "\(row.field): \(reply.text)")
        }
        let read = try await client.expect(.ok, .get, "/v1/providers/p/trips/\(id)", as: harness.server).json()
        let wanted = try JSONParser.parse(Array(Self.fill(expected ?? body, values).utf8))
        if let problem = Self.mismatch(read, wanted, path: "trip") { Issue.record("\(row.field): \(problem)") }
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    static func text(_ value: JSONValue) throws -> String { String(decoding: try JSONCoding.encode(value), as: UTF8.self) }

    /// `base` with `overlay`'s members put in (replacing those of the same name).
    static func merge(_ base: JSONValue, _ overlay: JSONValue) -> JSONValue {
        guard case .object(var members) = base, case .object(let extra) = overlay else { return overlay }
        for member in extra {
            if let i = members.firstIndex(where: { $0.key == member.key }) { members[i].value = member.value } else { members.append(member) }
        }
        return .object(members)
    }

    /// Where `answer` fails to hold `wanted`: every member of `wanted` is in `answer` with an
    /// equal value (objects compared as subsets, arrays element by element, numbers by
    /// value); "<present>" and "<absent>" ask only whether a member is there.
    static func mismatch(_ answer: JSONValue?, _ wanted: JSONValue, path: String) -> String? {
        switch wanted {
        case .string("<present>"): return answer == nil ? "\(path) is missing" : nil
        case .string("<absent>"): return answer == nil ? nil : "\(path) is there (\(answer!)) and should not be"
        case .object(let members):
            guard let answer, case .object = answer else { return "\(path): expected an object, found \(String(describing: answer))" }
            for member in members {
                if let problem = mismatch(answer[member.key], member.value, path: "\(path).\(member.key)") { return problem }
            }
            return nil
        case .array(let elements):
            guard case .array(let found)? = answer, found.count == elements.count else {
                return "\(path): expected \(elements.count) elements, found \(String(describing: answer))"
            }
            for (i, pair) in zip(found, elements).enumerated() {
                if let problem = mismatch(pair.0, pair.1, path: "\(path)[\(i)]") { return problem }
            }
            return nil
        default:
            return answer == wanted ? nil : "\(path): expected \(wanted), found \(String(describing: answer))"
        }
    }

    /// A header with every field, as `header.*` query parameters.
    static let headerQuery =
        "header.languageCode=en-US&header.region_code=US&header.sdkVersion=5.1.0&header.osVersion=14&header.deviceModel=Pixel%208"
        + "&header.sdkType=DRIVER&header.mapsSdkVersion=18.2.0&header.navSdkVersion=5.3.0&header.platform=2&header.manufacturer=Google"
        + "&header.androidApiLevel=34&header.traceId=abc"

    /// The header (every field of RequestHeader) on every vehicle and trip method: accepted,
    /// as query parameters or in the body, and counted in /metrics by SDK version, platform
    /// and OS version. The vehicle and trip methods' other fields come along: names and
    /// parents in the path, IDs and masks as parameters.
    @Test(arguments: TestStoreKind.available) func headerOnEveryMethod(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let s = harness.server
            let h = Self.headerQuery
            let created = try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1&\(h)", as: s, body: Bodies.vehicle)
            #expect(try created.json()["name"] == .string("providers/p/vehicles/v1"))
            try await client.expect(.ok, .get, "/v1/providers/p/vehicles/v1?\(h)", as: s)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?update_mask=vehicleState&\(h)", as: s, body: #"{"vehicleState": "OFFLINE"}"#)
            let header = #""header": {"sdkVersion": "5.1.0", "platform": "IOS", "osVersion": "17.1", "region_code": "US"}"#
            try await client.expect(
                .ok, .post, "/v1/providers/p/vehicles/v1:updateAttributes", as: s,
                body: #"{\#(header), "attributes": [{"key": "k", "stringValue": "v"}]}"#)
            let trip = try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t1&\(h)", as: s, body: Bodies.trip(vehicle: "v1"))
            #expect(try trip.json()["name"] == .string("providers/p/trips/t1"))
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1?\(h)", as: s)
            try await client.expect(.ok, .put, "/v1/providers/p/trips/t1?updateMask=tripStatus&\(h)", as: s, body: Bodies.status("CANCELED"))
            try await client.expect(.ok, .post, "/v1/providers/p/trips:search", as: s, body: #"{\#(header), "vehicleId": "v1"}"#)
            try await client.expect(.ok, .post, "/v1/providers/p/billableTrips/t1:report", as: s, body: #"{\#(header), "countryCode": "US"}"#)
            try await client.expect(.ok, .delete, "/v1/providers/p/trips/t1?\(h)", as: s)
            try await client.expect(.ok, .delete, "/v1/providers/p/vehicles/v1?\(h)", as: s)
            let metrics = try await client.expect(.ok, .get, "/metrics").text
            #expect(
                metrics.contains(#"tripshare_fleet_engine_sdk_requests_total{sdk_version="5.1.0",platform="IOS",os_version="14"} 8"#), "\(metrics)")
            #expect(metrics.contains(#"tripshare_fleet_engine_sdk_requests_total{sdk_version="5.1.0",platform="IOS",os_version="17.1"} 3"#))

            let unknown = try await client.expect(.badRequest, .get, "/v1/providers/p/trips/t1?header.sdkColour=red", as: s)
            #expect(unknown.errorMessage.hasPrefix("header.sdkColour: unknown query parameter"))
            let badEnum = try await client.expect(
                .badRequest, .post, "/v1/providers/p/trips:search", as: s, body: #"{"header": {"platform": "AMIGA"}}"#)
            #expect(badEnum.errorMessage.hasPrefix("header.platform: unknown value 'AMIGA'"), "\(badEnum.errorMessage)")
            let badField = try await client.expect(.badRequest, .post, "/v1/providers/p/trips:search", as: s, body: #"{"header": {"colour": 1}}"#)
            #expect(badField.errorMessage == "header.colour: unknown field")
        }
    }
}
