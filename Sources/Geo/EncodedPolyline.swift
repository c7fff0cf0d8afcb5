// Google's encoded polyline algorithm format: each coordinate delta, scaled by 10^precision
// and rounded, zig-zag encoded and written in 5-bit groups offset by 63 into printable ASCII.

/// Google encoded polylines at precision 5 (Google Maps, OSRM) or 6 (Valhalla).
public enum EncodedPolyline {
    /// Why a string could not be decoded.
    public struct DecodingError: Error, Equatable, CustomStringConvertible {
        /// Offset in the string's UTF-8 bytes where decoding stopped.
        public var offset: Int
        /// What was wrong there.
        public var reason: String
        public var description: String { "invalid encoded polyline at byte \(offset): \(reason)" }
    }

    /// Encodes points; coordinates are rounded to the precision, so each delta is exact.
    public static func encode(_ points: [LatLng], precision: Int = 5) -> String {
        let factor = scale(precision)
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var previousLat = 0
        var previousLng = 0
        for point in points {
            let lat = Int((point.latitude * factor).rounded())
            let lng = Int((point.longitude * factor).rounded())
            appendValue(lat - previousLat, to: &out)
            appendValue(lng - previousLng, to: &out)
            previousLat = lat
            previousLng = lng
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a string; throws on characters outside the alphabet, on a truncated value
    /// and on a dangling latitude without its longitude.
    public static func decode(_ encoded: String, precision: Int = 5) throws(DecodingError) -> [LatLng] {
        let factor = scale(precision)
        var points: [LatLng] = []
        var lat = 0
        var lng = 0
        let bytes = Array(encoded.utf8)
        var index = 0
        points.reserveCapacity(bytes.count / 6)
        while index < bytes.count {
            lat += try readValue(bytes, &index)
            if index >= bytes.count {
                throw DecodingError(offset: index, reason: "latitude without a longitude")
            }
            lng += try readValue(bytes, &index)
            points.append(LatLng(latitude: Double(lat) / factor, longitude: Double(lng) / factor))
        }
        return points
    }

    private static func scale(_ precision: Int) -> Double {
        var factor = 1.0
        for _ in 0..<max(0, precision) { factor *= 10 }
        return factor
    }

    private static func appendValue(_ value: Int, to out: inout [UInt8]) {
        var v = UInt(bitPattern: value << 1)
        if value < 0 { v = ~v }
        while v >= 0x20 {
            out.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        out.append(UInt8(v + 63))
    }

    private static func readValue(_ bytes: [UInt8], _ index: inout Int) throws(DecodingError) -> Int {
        var result: UInt = 0
        var shift: UInt = 0
        while true {
            guard index < bytes.count else {
                throw DecodingError(offset: index, reason: "value runs past the end")
            }
            let byte = bytes[index]
            guard byte >= 63, byte < 127 else {
                throw DecodingError(offset: index, reason: "character \(byte) is outside the alphabet")
            }
            guard shift < 60 else {
                throw DecodingError(offset: index, reason: "value too long")
            }
            let chunk = UInt(byte - 63)
            index += 1
            result |= (chunk & 0x1f) << shift
            shift += 5
            if chunk < 0x20 { break }
        }
        let magnitude = Int(bitPattern: result >> 1)
        return (result & 1) != 0 ? ~magnitude : magnitude
    }
}
