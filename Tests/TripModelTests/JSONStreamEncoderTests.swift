import Foundation
import JSON
import Testing
import TripModel

@Suite struct JSONStreamEncoderTests {
    struct Sample: Codable, Equatable {
        var text: String
        var number: Double
        var count: Int
        var flag: Bool
        var list: [Int]
        var nested: [String: [Double]]
        var missing: String?
    }

    /// Encoding then decoding gives the value back, for awkward strings and numbers too.
    @Test func roundTrip() throws {
        let sample = Sample(
            text: "quote \" back \\ tab\t nl\n ctrl\u{01} é 🚕 /", number: -0.000012345, count: Int.max,
            flag: true, list: [], nested: ["a": [1.5, 2, 1e300]], missing: nil)
        let bytes = try JSONStreamEncoder().encode(sample)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(bytes)) == sample)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""text":"quote \" back \\ tab\t nl\n ctrl\u0001 é 🚕 /""#))
    }

    /// Escapes at the start, at the end, side by side and between long plain runs, as in
    /// encoded polylines (`\` is one of their characters), come out as Foundation writes them.
    @Test(arguments: [
        #"\"#, #"\\"#, #"a\"#, #"\a"#, "\"\n\\", #"_p~iF~ps|U\\?@\_ulL"#,
        String(repeating: "x", count: 5_000) + #"\"# + String(repeating: "y", count: 3_000) + "\u{1f}",
    ])
    func escapesAmongPlainRuns(_ text: String) throws {
        let ours = String(decoding: try JSONStreamEncoder().encode([text]), as: UTF8.self)
        #expect(ours == String(decoding: try JSONEncoder().encode([text]), as: UTF8.self).replacingOccurrences(of: #"\/"#, with: "/"))
        #expect(try JSONDecoder().decode([String].self, from: Data(ours.utf8)) == [text])
    }

    /// Strings whose escapes fall anywhere in the eight-byte words the writer scans (first,
    /// last, side by side, in a short tail, after UTF-8 and DEL) are written as escaping
    /// byte by byte writes them: 3,000 random strings over an alphabet rich in what JSON
    /// escapes and in bytes next to it.
    @Test func escapesWhereverTheyFall() throws {
        let alphabet: [Unicode.Scalar] = ["\"", "\\", "\n", "\u{0}", "\u{1f}", " ", "!", "#", "[", "]", "?", "_", "~", "\u{7f}", "é", "🚕", "a"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var text = ""
            for _ in 0..<length { text.unicodeScalars.append(alphabet.randomElement(using: &generator)!) }
            let written = try JSONStreamEncoder().encode(text)
            #expect(written == Self.escapedByteByByte(text), "\(Array(text.utf8))")
        }
    }

    /// The JSON string of `text`, escaped a byte at a time.
    static func escapedByteByByte(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += Array(#"\n"#.utf8)
            case 0x0D: bytes += Array(#"\r"#.utf8)
            case 0x09: bytes += Array(#"\t"#.utf8)
            case 0..<0x20: bytes += Array(String(format: "\\u%04x", byte).utf8)
            default: bytes.append(byte)
            }
        }
        return bytes + [0x22]
    }

    /// A whole trip encodes to the same JSON Foundation produces, member for member.
    @Test func matchesFoundation() throws {
        var trip = Trip(name: "providers/p/trips/t")
        trip.remainingWaypoints = [
            TripWaypoint(
                location: TerminalLocation(point: .init(latitude: 37.4, longitude: -122.1)),
                tripId: "t", waypointType: .pickup, encodedPathToWaypoint: "_p~iF~ps|U",
                trafficToWaypoint: ConsumableTrafficPolyline(speedReadingInterval: [
                    SpeedReadingInterval(startPolylinePointIndex: 0, endPolylinePointIndex: 1, speed: .slow)
                ]),
                distanceMeters: 12, eta: Timestamp(secondsSince1970: 1.5), duration: ProtoDuration(seconds: 3.25))
        ]
        let ours = try JSONParser.parse(try JSONStreamEncoder().encode(trip))
        let foundation = try JSONParser.parse(Array(try JSONEncoder().encode(trip)))
        #expect(ours == foundation.sortedLike(ours))
    }

    /// NaN and infinity cannot be written.
    @Test func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONStreamEncoder().encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONStreamEncoder().encode(["x": Double.infinity]) }
    }

    struct Point: Encodable {
        var lat: Double
        var lng: Double?
    }
    struct Route: Encodable {
        var start: Point
        var name: String?
        var points: [Point]
    }

    /// The error names the path to the bad number, with nothing left over from the members
    /// written before it.
    @Test func nonFinitePath() throws {
        let route = Route(start: Point(lat: 1, lng: 2), name: "r", points: [Point(lat: 3, lng: nil), Point(lat: 4, lng: .nan)])
        do {
            _ = try JSONStreamEncoder().encode(route)
            Issue.record("NaN was encoded")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["points", "1", "lng"])
        }
        let fine = Route(start: Point(lat: 1, lng: nil), name: nil, points: [])
        #expect(String(decoding: try JSONStreamEncoder().encode(fine), as: UTF8.self) == #"{"start":{"lat":1},"points":[]}"#)
    }
}

extension JSONValue {
    /// This value with object members in the order `other` has them (for comparisons).
    func sortedLike(_ other: JSONValue) -> JSONValue {
        switch (self, other) {
        case (.object(let mine), .object(let theirs)):
            let order = theirs.map(\.key)
            return .object(
                mine.sorted { (order.firstIndex(of: $0.key) ?? .max) < (order.firstIndex(of: $1.key) ?? .max) }
                    .map { member in (member.key, member.value.sortedLike(other[member.key] ?? member.value)) })
        case (.array(let mine), .array(let theirs)) where mine.count == theirs.count:
            return .array(zip(mine, theirs).map { $0.sortedLike($1) })
        default: return self
        }
    }
}
