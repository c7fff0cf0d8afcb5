// Base64 as Fleet Engine writes S2 route segments: the URL-safe alphabet with padding. Both
// alphabets are read (they may even be mixed), with or without padding, so that strings copied
// from logs, protobuf JSON or other tools all decode.

/// Base64 for the S2 polyline codec.
enum Base64 {
    /// Where and why a string is not base64.
    struct Fault: Error {
        /// Character offset in the string's UTF-8 bytes.
        var offset: Int
        var detail: String
    }

    /// Decodes the standard (`+/`) or URL-safe (`-_`) alphabet, padded or not.
    static func decode(_ text: String) throws(Fault) -> [UInt8] {
        var text = text
        // withUTF8 only rethrows untyped errors; carry the typed one out in a Result.
        let result = text.withUTF8 { chars in Result { () throws(Fault) in try decode(chars) } }
        return try result.get()
    }

    private static func decode(_ chars: UnsafeBufferPointer<UInt8>) throws(Fault) -> [UInt8] {
        // Padding: at most two `=`, only at the end, and then the length is a multiple of 4.
        var end = chars.count
        while end > 0, chars[end - 1] == UInt8(ascii: "="), chars.count - end < 2 { end -= 1 }
        for index in 0..<end where value(of: chars[index]) == nil {
            throw Fault(offset: index, detail: "character \(chars[index]) is not base64")
        }
        if end < chars.count, chars.count % 4 != 0 {
            throw Fault(offset: end, detail: "padding on a length that is not a multiple of 4")
        }
        if end % 4 == 1 {
            throw Fault(offset: end - 1, detail: "a lone character cannot end a base64 string")
        }
        var out: [UInt8] = []
        out.reserveCapacity(end / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<end {
            accumulator = (accumulator << 6) | UInt32(value(of: chars[index]) ?? 0)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// Encodes with the URL-safe alphabet and padding, as Fleet Engine does.
    static func encodeURLSafe(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group: UInt32 = 0
            for k in 0..<3 { group = (group << 8) | UInt32(k < count ? bytes[index + k] : 0) }
            for k in 0..<4 {
                out.append(k <= count ? alphabet[Int((group >> UInt32(18 - 6 * k)) & 63)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
