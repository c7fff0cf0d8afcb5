import Testing
import TripModel

@Suite struct TimestampTests {
    /// Fleet Engine's microsecond timestamps round-trip exactly.
    @Test func microsecondsRoundTrip() throws {
        let t = try #require(Timestamp(rfc3339: "2025-02-05T17:02:31.483732Z"))
        #expect(t.rfc3339 == "2025-02-05T17:02:31.483732Z")
        #expect(t.microseconds == 1_738_774_951_483_732)
    }

    /// Milliseconds print with three digits, whole seconds with none.
    @Test func fractionDigits() throws {
        #expect(try #require(Timestamp(rfc3339: "2025-02-05T17:02:31.480Z")).rfc3339 == "2025-02-05T17:02:31.480Z")
        #expect(try #require(Timestamp(rfc3339: "2025-02-05T17:02:31Z")).rfc3339 == "2025-02-05T17:02:31Z")
        #expect(try #require(Timestamp(rfc3339: "2025-02-05T17:02:31.123456789Z")).rfc3339 == "2025-02-05T17:02:31.123456Z")
    }

    /// Offsets are applied and the result is printed in UTC.
    @Test func offsets() throws {
        let t = try #require(Timestamp(rfc3339: "2025-02-05T19:02:31+02:00"))
        #expect(t.rfc3339 == "2025-02-05T17:02:31Z")
        let west = try #require(Timestamp(rfc3339: "2024-12-31T23:30:00-01:00"))
        #expect(west.rfc3339 == "2025-01-01T00:30:00Z")
    }

    /// Dates before 1970 and leap days convert correctly.
    @Test func calendarEdges() throws {
        #expect(try #require(Timestamp(rfc3339: "1969-12-31T23:59:59Z")).microseconds == -1_000_000)
        #expect(try #require(Timestamp(rfc3339: "2024-02-29T12:00:00Z")).rfc3339 == "2024-02-29T12:00:00Z")
        #expect(Timestamp(microseconds: -1).rfc3339 == "1969-12-31T23:59:59.999999Z")
        #expect(try #require(Timestamp(rfc3339: "0099-03-01T00:00:00.5Z")).rfc3339 == "0099-03-01T00:00:00.500Z")
        // Years of five digits are written whole.
        #expect(Timestamp(microseconds: 253_402_300_800_000_000 + 1_500).rfc3339 == "10000-01-01T00:00:00.001500Z")
    }

    /// Malformed and impossible times are rejected.
    @Test(arguments: [
        "", "2025-02-05", "2025-02-05T17:02:31", "2025-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2025-02-05T24:00:00Z", "2025-02-05T17:02:31.Z", "2025-02-05T17:02:31Zjunk", "2025-02-05T17:02:31+2:00",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }

    /// Durations use the protobuf JSON form.
    @Test func durations() throws {
        #expect(try #require(ProtoDuration(text: "53.076652s")).seconds == 53.076652)
        #expect(ProtoDuration(seconds: 53.076652).text == "53.076652s")
        #expect(ProtoDuration(seconds: 12).text == "12s")
        #expect(ProtoDuration(seconds: 12.5).text == "12.5s")
        #expect(ProtoDuration(seconds: -0.25).text == "-0.25s")
        #expect(ProtoDuration(text: "12") == nil)
        #expect(ProtoDuration(text: "abcs") == nil)
        #expect(ProtoDuration(text: "1e3s") == nil)
    }
}
