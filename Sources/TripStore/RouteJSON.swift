// The JSON strings of a vehicle's route segment and of the path cut from it, written into the
// answer to every location update (issue 30): at 20,000 points they are some 80 KB, and
// JSONStreamEncoder's byte-by-byte scan for what needs escaping was 5% of the update's CPU.
// An encoded polyline's bytes all lie between "?" and "~", where the backslash is the only
// byte JSON escapes, so the string is copied in runs between backslashes found with memchr.

import JSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// JSON strings of encoded polylines.
package enum RouteJSON {
    /// `text` as a JSON string, byte for byte what ``JSONStreamEncoder`` writes for it.
    package static func string(_ text: String) throws -> [UInt8] {
        var text = text
        if let written = text.withUTF8(polylineString) { return written }
        return try JSONStreamEncoder().encode(text)
    }

    /// The JSON string of `bytes` where they all lie in an encoded polyline's alphabet (63 to
    /// 126), nil otherwise.
    private static func polylineString(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var lowest = UInt8.max
        var highest = UInt8.min
        for byte in bytes {
            lowest = min(lowest, byte)
            highest = max(highest, byte)
        }
        guard let base = bytes.baseAddress else { return [quote, quote] }
        guard lowest >= 63, highest <= 126 else { return nil }
        var written: [UInt8] = []
        written.reserveCapacity(bytes.count + bytes.count / 32 + 2)
        written.append(quote)
        var runStart = 0
        while runStart < bytes.count, let found = memchr(base + runStart, Int32(backslash), bytes.count - runStart) {
            let escaped = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            written.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<escaped]))
            written.append(backslash)
            written.append(backslash)
            runStart = escaped + 1
        }
        written.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        written.append(quote)
        return written
    }
}
