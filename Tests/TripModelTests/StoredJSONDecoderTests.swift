import Geo
import JSON
import Testing
import TripModel

/// Stored rows are read by StoredJSONDecoder: the values StrictJSONDecoder gives for the same
/// text, and its errors for text the fast path does not read.
@Suite struct StoredJSONDecoderTests {
    func both<T: Decodable & Equatable>(_ type: T.Type, _ json: String) throws -> (stored: T, strict: T) {
        (try StoredJSONDecoder.decode(type, from: json, root: "stored"), try StrictJSONDecoder().decode(type, from: Array(json.utf8), root: "stored"))
    }

    /// A trip with nested objects, arrays, enums, timestamps and durations reads as the strict
    /// decoder reads it.
    @Test func aTripReadsAsStrictlyDecoded() throws {
        let json = #"""
            {"name":"providers/p/trips/t1","vehicleId":"v1","tripStatus":"ENROUTE_TO_PICKUP","tripType":"SHARED",
             "numberOfPassengers":2,"pickupPoint":{"point":{"latitude":37.321979999999996,"longitude":-122.09999174596396}},
             "pickupTime":"2026-11-30T08:25:48.109080Z","remainingTimeToFirstWaypoint":"100.662s",
             "intermediateDestinations":[{"point":{"latitude":1.5,"longitude":2.5}},{"point":{"latitude":-3,"longitude":4e-2}}],
             "attributes":[{"key":"colour","stringValue":"red"},{"key":"seats","numberValue":4}],
             "remainingDistanceMeters":1117}
            """#
        let (stored, strict) = try both(Trip.self, json)
        #expect(stored == strict)
        #expect(stored.tripStatus == .enrouteToPickup)
        #expect(stored.intermediateDestinations.count == 2)
        #expect(stored.intermediateDestinations.last?.point.longitude == 0.04)
    }

    /// proto3 JSON's spellings read as the strict decoder reads them: values that mean unset
    /// (an empty string, an enum's zero value by name or number) are absent, and numbers may
    /// come as strings.
    @Test func proto3SpellingsReadAsStrictlyDecoded() throws {
        let unset = try both(Trip.self, #"{"tripType": "UNKNOWN_TRIP_TYPE", "tripStatus": 0, "vehicleId": "", "numberOfPassengers": 0}"#)
        #expect(unset.stored == unset.strict)
        #expect(unset.stored.tripType == nil && unset.stored.numberOfPassengers == nil && unset.stored.vehicleId == nil)
        let strings = try both(Trip.self, #"{"tripType": 2, "tripStatus": "2", "numberOfPassengers": "3", "remainingDistanceMeters": "12"}"#)
        #expect(strings.stored == strings.strict)
        #expect(strings.stored.numberOfPassengers == 3)
    }

    /// Escaped text (quotes, backslashes, \u escapes, a surrogate pair) reads back as written.
    @Test func escapedStringsReadBack() throws {
        var trip = Trip(name: "providers/p/trips/t1")
        trip.vehicleId = "a \"quoted\" \\ name, \u{1F697} and \u{7}"
        let json = try JSONCoding.encodeText(trip)
        let (stored, strict) = try both(Trip.self, json)
        #expect(stored.vehicleId == trip.vehicleId)
        #expect(stored == strict)
        let escaped = try StoredJSONDecoder.decode(Trip.self, from: #"{"vehicleId": "\u00e9t\u00e9 \ud83d\ude97"}"#, root: "stored")
        #expect(escaped.vehicleId == "été 🚗")
    }

    /// The estimator's state with every member set reads back whole.
    @Test func trackingWithEveryMemberReadsBack() throws {
        let tracking = RouteTrackingCodingTests.everyMemberSet()
        let json = try JSONCoding.encodeText(tracking)
        #expect(try StoredJSONDecoder.decode(RouteTracking.self, from: json, root: "tracking") == tracking)
    }

    /// Text the fast path cannot read fails with the strict decoder's error, which names the
    /// member: a stored row that went bad is reported as before.
    @Test(arguments: [
        #"{"pickupPoint": {"point": {"latitude": "north", "longitude": 2}}}"#,
        #"{"tripType": "TRIP_TYPE_EXCLUSIVE"}"#,
        #"{"intermediateDestinations": [{"point": {"latitude": 1, "longitude": 2}}, {}]}"#,
        #"{"numberOfPassengers": 2.5}"#,
        #"{"vehicleId": "v1", "pickupPoint": {"point": {"latitude": 1"#,
        #"{"vehicleId": null, "tripType": nul}"#,
        #"{"lastLocationSnappable": tru}"#,
        #"{"numberOfPassengers": 1x}"#,
    ])
    func unreadableTextFailsAsStrictly(_ json: String) throws {
        let stored = try #require(throws: JSONInputError.self) { try StoredJSONDecoder.decode(Trip.self, from: json, root: "stored") }
        let strict = try #require(throws: JSONInputError.self) { try StrictJSONDecoder().decode(Trip.self, from: Array(json.utf8), root: "stored") }
        #expect(stored == strict)
    }

    /// Numbers read from the bytes give what the strict decoder gives: integers of every length
    /// (past 18 digits the general path reads them), negative zero with its sign, fractions and
    /// exponents.
    @Test(arguments: [
        "0", "7", "-7", "1117", "-0", "123456789012345678", "-123456789012345678", "9223372036854775807", "-9223372036854775808",
        "12345678901234567890", "37.309979999999996", "-122.09999174596396", "4e-2", "1E3", "-0.0",
    ])
    func numbersReadAsStrictly(_ literal: String) throws {
        let json = #"{"point": {"latitude": \#(literal), "longitude": 1}}"#
        let stored = try StoredJSONDecoder.decode(TerminalLocation.self, from: json, root: "stored")
        let strict = try StrictJSONDecoder().decode(TerminalLocation.self, from: Array(json.utf8), root: "stored")
        #expect(stored.point.latitude.bitPattern == strict.point.latitude.bitPattern)
        let integers = #"{"remainingDistanceMeters": \#(literal)}"#
        let storedTrip = try? StoredJSONDecoder.decode(Trip.self, from: integers, root: "stored")
        let strictTrip = try? StrictJSONDecoder().decode(Trip.self, from: Array(integers.utf8), root: "stored")
        #expect(storedTrip == strictTrip)
    }

    /// A member no type reads is stepped over however deep it nests (past the 64 levels whose
    /// brackets are kept as bits), and a bracket that does not match fails as strictly.
    @Test func deeplyNestedUnknownMembersAreSteppedOver() throws {
        let deep = String(repeating: "[{\"a\":", count: 40) + "1" + String(repeating: "}]", count: 40)
        let json = #"{"vehicleId": "v1", "addedLater": \#(deep), "tripType": "SHARED"}"#
        let trip = try StoredJSONDecoder.decode(Trip.self, from: json, root: "stored")
        #expect(trip.vehicleId == "v1" && trip.tripType == .shared)
        let crossed = #"{"vehicleId": "v1", "addedLater": [{"a": 1]}, "tripType": "SHARED"}"#
        #expect(throws: JSONInputError.self) { try StoredJSONDecoder.decode(Trip.self, from: crossed, root: "stored") }
        let deepCrossed = #"{"addedLater": \#(String(repeating: "[", count: 70) + "}" + String(repeating: "]", count: 69))}"#
        #expect(throws: JSONInputError.self) { try StoredJSONDecoder.decode(Trip.self, from: deepCrossed, root: "stored") }
    }

    /// A member no type reads is ignored, as a newer version's row read by an older server
    /// should be; the strict decoder (for what clients send) refuses it.
    @Test func unknownMembersAreIgnored() throws {
        let json = #"{"vehicleId": "v1", "addedLater": {"deep": [1, {"x": "y"}]}, "tripType": "SHARED"}"#
        let trip = try StoredJSONDecoder.decode(Trip.self, from: json, root: "stored")
        #expect(trip.vehicleId == "v1" && trip.tripType == .shared)
        #expect(throws: JSONInputError.self) { try StrictJSONDecoder().decode(Trip.self, from: Array(json.utf8), root: "stored") }
    }

    /// One member decoded alone: nil when absent or null, an error naming it when it is not
    /// of its type.
    @Test func oneMember() throws {
        let json = #"{"distanceAlongMeters": 0, "firstLegStartMeters": 12.5, "fixTime": null}"#
        #expect(try StoredJSONDecoder.member("firstLegStartMeters", of: json, as: Double.self) == 12.5)
        #expect(try StoredJSONDecoder.member("fixTime", of: json, as: Timestamp.self) == nil)
        #expect(try StoredJSONDecoder.member("missing", of: json, as: Double.self) == nil)
        let error = try #require(throws: JSONInputError.self) {
            try StoredJSONDecoder.member("firstLegStartMeters", of: #"{"firstLegStartMeters": "far"}"#, as: Double.self)
        }
        #expect(error.path == "firstLegStartMeters")
    }
}
