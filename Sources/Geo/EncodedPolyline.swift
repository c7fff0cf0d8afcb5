// Google's encoded polyline algorithm format: each coordinate delta, scaled by 10^precision
// and rounded, zig-zag encoded and written in 5-bit groups offset by 63 into printable ASCII.
//
// Decoding is on the hot path of every vehicle update, so it reads the string's UTF-8 in
// place, counts the values first to allocate the result exactly once, and does nothing else
// per point that allocates.

/// Google encoded polylines at precision 5 (Google Maps, OSRM) or 6 (Valhalla).
public enum EncodedPolyline {
    /// Why a string could not be decoded, and where.
    public struct DecodingError: Error, Hashable, CustomStringConvertible {
        /// What kind of fault was found; compare against the static members.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private let name: String
            private init(_ name: String) { self.name = name }
            /// The code's name, as in messages.
            public var description: String { name }

            /// A byte outside the alphabet `?` (63) ... `~` (126).
            package static let badCharacter = Code("bad character")
            /// The string ends inside a value (its last byte has the continuation bit set).
            package static let truncatedValue = Code("truncated value")
            /// The string ends after a latitude, without the longitude of that point.
            package static let latitudeWithoutLongitude = Code("latitude without longitude")
            /// A value has more 5-bit groups than fit in 64 bits.
            package static let valueTooLong = Code("value too long")
        }

        /// What was wrong.
        package var code: Code
        /// Offset in the string's UTF-8 bytes where decoding stopped.
        public var offset: Int

        /// What was wrong, in words (the code's name).
        package var reason: String { code.description }
        /// A one-line message: what, and at which byte.
        public var description: String { "invalid encoded polyline at byte \(offset): \(code)" }
    }

    /// Encodes points, rounding each coordinate half up to the precision as Google's own
    /// utilities do (so outputs match theirs byte for byte); deltas are then exact.
    public static func encode(_ points: [LatLng], precision: Int = 5) -> String {
        String(decoding: encodedBytes(points, factor: scale(precision)) { _ in }, as: UTF8.self)
    }

    /// A point as the encoder writes it or the decoder reads it: its place in the line, where
    /// its bytes start, and its coordinates scaled to whole numbers.
    struct WrittenPoint {
        var index: Int
        var offset: Int
        var latitude: Int
        var longitude: Int
    }

    /// The encoding of `points` at `factor`, showing `visit` each point as it is written.
    static func encodedBytes(_ points: [LatLng], factor: Double, visit: (WrittenPoint) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var previousLat = 0
        var previousLng = 0
        for (index, point) in points.enumerated() {
            let lat = roundHalfUp(point.latitude * factor)
            let lng = roundHalfUp(point.longitude * factor)
            visit(WrittenPoint(index: index, offset: out.count, latitude: lat, longitude: lng))
            appendValue(lat &- previousLat, to: &out)
            appendValue(lng &- previousLng, to: &out)
            previousLat = lat
            previousLng = lng
        }
        return out
    }

    /// Decodes a string; throws on a byte outside the alphabet, on a truncated value and on
    /// a latitude without its longitude, with the byte offset where it stopped.
    public static func decode(_ encoded: String, precision: Int = 5) throws(DecodingError) -> [LatLng] {
        var encoded = encoded
        // withUTF8 only rethrows untyped errors; carry the typed one out in a Result.
        let result = encoded.withUTF8 { bytes in
            Result { () throws(DecodingError) in try decode(bytes, factor: scale(precision)) { _, _ in } }
        }
        return try result.get()
    }

    /// The points of `bytes` at `factor`, showing `visit` each point as it is read and whether
    /// both its values were written in their fewest bytes (as ``encode(_:precision:)`` writes
    /// them).
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, factor: Double, visit: (WrittenPoint, _ fewestBytes: Bool) -> Void
    ) throws(DecodingError) -> [LatLng] {
        // A value ends at each byte below 95 (no continuation bit); two values make a point.
        var valueCount = 0
        for byte in bytes where byte < 95 { valueCount += 1 }
        var points: [LatLng] = []
        points.reserveCapacity(valueCount / 2)

        var index = 0
        var lat = 0
        var lng = 0
        var fewestBytes = true
        while index < bytes.count {
            let start = index
            lat &+= try readValue(bytes, &index, fewestBytes: &fewestBytes)
            if index == bytes.count {
                throw DecodingError(code: .latitudeWithoutLongitude, offset: index)
            }
            lng &+= try readValue(bytes, &index, fewestBytes: &fewestBytes)
            visit(WrittenPoint(index: points.count, offset: start, latitude: lat, longitude: lng), fewestBytes)
            fewestBytes = true
            points.append(LatLng(latitude: Double(lat) / factor, longitude: Double(lng) / factor))
        }
        return points
    }

    static func scale(_ precision: Int) -> Double {
        var factor = 1.0
        for _ in 0..<max(0, precision) { factor *= 10 }
        return factor
    }

    /// Rounds half up (JavaScript's `Math.round`, Java's `Math.round`), exactly: `x - floor`
    /// is exact for every double of integer magnitude below 2^52.
    static func roundHalfUp(_ x: Double) -> Int {
        guard x.isFinite else { return 0 }
        let floor = x.rounded(.down)
        let rounded = x - floor >= 0.5 ? floor + 1 : floor
        return Int(max(-9.0e18, min(9.0e18, rounded)))
    }

    static func appendValue(_ value: Int, to out: inout [UInt8]) {
        var v = UInt(bitPattern: value << 1)
        if value < 0 { v = ~v }
        while v >= 0x20 {
            out.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        out.append(UInt8(v + 63))
    }

    /// Reads one value; clears `fewestBytes` where it was not written in its fewest bytes (its
    /// last group is zero after others).
    static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, fewestBytes: inout Bool) throws(DecodingError) -> Int {
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            guard index < bytes.count else {
                throw DecodingError(code: .truncatedValue, offset: index)
            }
            let byte = bytes[index]
            guard byte >= 63, byte < 127 else {
                throw DecodingError(code: .badCharacter, offset: index)
            }
            guard shift < 64 else {
                throw DecodingError(code: .valueTooLong, offset: index)
            }
            let chunk = UInt(byte - 63)
            index += 1
            result |= (chunk & 0x1f) << shift
            if chunk < 0x20 {
                if shift > 0, chunk == 0 { fewestBytes = false }
                break
            }
            shift += 5
        }
        let magnitude = Int(bitPattern: result >> 1)
        return (result & 1) != 0 ? ~magnitude : magnitude
    }
}
