import JSON
import Testing
import TripModel

@Suite struct StrictJSONDecoderTests {
    func decodeTrip(_ json: String) throws(JSONInputError) -> Trip {
        try StrictJSONDecoder().decode(Trip.self, from: Array(json.utf8), root: "trip")
    }

    /// A misspelt field is an error that names it, not silently dropped.
    @Test func unknownFieldIsNamed() {
        #expect(throws: JSONInputError(path: "trip.pickupPoint.pont", message: "unknown field; 'point' is required here")) {
            try decodeTrip(#"{"pickupPoint": {"pont": {"latitude": 1, "longitude": 2}}}"#)
        }
    }

    /// A wrong type names the field and both types.
    @Test func wrongTypeIsNamed() throws {
        let error = try #require(throws: JSONInputError.self) {
            try decodeTrip(#"{"pickupPoint": {"point": {"latitude": "north", "longitude": 2}}}"#)
        }
        #expect(error.path == "trip.pickupPoint.point.latitude")
        #expect(error.message.contains("expected a number, found a string"))
    }

    /// An unknown enum value lists the accepted spellings.
    @Test func unknownEnumValue() throws {
        let error = try #require(throws: JSONInputError.self) { try decodeTrip(#"{"tripType": "TRIP_TYPE_EXCLUSIVE"}"#) }
        #expect(error.path == "trip.tripType")
        #expect(error.message.contains("SHARED, EXCLUSIVE"))
    }

    /// Array elements are named by index.
    @Test func arrayIndexInPath() throws {
        let error = try #require(throws: JSONInputError.self) {
            try decodeTrip(#"{"intermediateDestinations": [{"point": {"latitude": 1, "longitude": 2}}, {"point": {}}]}"#)
        }
        #expect(error.path == "trip.intermediateDestinations[1].point.latitude")
        #expect(error.message == "required field is missing")
    }

    /// Syntax errors carry the byte offset; NaN, duplicates and deep nesting are refused.
    @Test(arguments: [
        (#"{"vehicleId": "a",}"#, "byte 18"),
        (#"{"numberOfPassengers": NaN}"#, "unexpected character 'N'"),
        (#"{"vehicleId": "a", "vehicleId": "b"}"#, "duplicate member 'vehicleId'"),
        (String(repeating: "[", count: 100), "nesting deeper than 64"),
        (#"{"vehicleId": "\ud800"}"#, "unpaired surrogate"),
        ("", "unexpected end of input"),
    ])
    func syntaxErrors(_ json: String, _ fragment: String) throws {
        let error = try #require(throws: JSONInputError.self) { try decodeTrip(json) }
        #expect(error.path == "trip")
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    /// Escapes and non-ASCII text decode.
    @Test func strings() throws {
        let trip = try decodeTrip(#"{"vehicleId": "caf\u00e9 \"x\" \ud83d\ude95 \/ ü"}"#)
        #expect(trip.vehicleId == "café \"x\" 🚕 / ü")
    }

    /// Integers must be integral and in range.
    @Test func integers() throws {
        #expect(try decodeTrip(#"{"numberOfPassengers": 2.0}"#).numberOfPassengers == 2)
        #expect(throws: JSONInputError.self) { try decodeTrip(#"{"numberOfPassengers": 2.5}"#) }
        #expect(throws: JSONInputError.self) { try decodeTrip(#"{"numberOfPassengers": 1e40}"#) }
    }

    /// Omitted empty fields and null decode as absent; encoding omits them again.
    @Test func emptyFieldsOmitted() throws {
        let trip = try decodeTrip(#"{"name": "providers/p/trips/t", "remainingWaypoints": null, "tripStatus": "NEW"}"#)
        #expect(trip.remainingWaypoints.isEmpty)
        let json = try JSONCoding.encodeText(trip)
        #expect(json == #"{"name":"providers/p/trips/t","tripStatus":"NEW"}"#)
    }
}

extension StrictJSONDecoderTests {
    /// An unknown field next to complete data is reported as unknown.
    @Test func unknownFieldAfterValidData() {
        #expect(throws: JSONInputError(path: "trip.colour", message: "unknown field")) {
            try decodeTrip(#"{"tripType": "SHARED", "colour": "red"}"#)
        }
    }
}
