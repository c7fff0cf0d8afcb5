// A bounds-checked little-endian cursor over bytes, with the varints S2's coders write
// (7 bits a byte, least significant group first, high bit = more follows).

/// Reads fixed-width little-endian values and varints; every read says what it was for, so
/// a short input names the field that was cut off.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte(_ what: @autoclosure () -> String) throws(S2Polyline.DecodingError) -> UInt8 {
        try need(1, what())
        defer { offset += 1 }
        return bytes[offset]
    }

    /// `count` (0...8) bytes as a little-endian unsigned integer.
    mutating func littleEndian(_ count: Int, _ what: @autoclosure () -> String) throws(S2Polyline.DecodingError) -> UInt64 {
        try need(count, what())
        var value: UInt64 = 0
        for k in 0..<count { value |= UInt64(bytes[offset + k]) << UInt64(8 * k) }
        offset += count
        return value
    }

    mutating func double(_ what: @autoclosure () -> String) throws(S2Polyline.DecodingError) -> Double {
        Double(bitPattern: try littleEndian(8, what()))
    }

    /// A varint of at most `maxBytes` bytes (5 for 32-bit values, 10 for 64-bit ones).
    mutating func varint(_ what: @autoclosure () -> String, maxBytes: Int = 10) throws(S2Polyline.DecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < bytes.count else {
                throw S2Polyline.DecodingError(code: .truncated, offset: start, detail: "\(what()) runs past the end")
            }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
            if offset - start >= maxBytes {
                throw S2Polyline.DecodingError(code: .malformedVarint, offset: start, detail: "\(what()) is longer than \(maxBytes) bytes")
            }
        }
    }

    /// A 32-bit varint.
    mutating func varint32(_ what: @autoclosure () -> String) throws(S2Polyline.DecodingError) -> UInt32 {
        let start = offset
        let value = try varint(what(), maxBytes: 5)
        guard let narrow = UInt32(exactly: value) else {
            throw S2Polyline.DecodingError(code: .malformedVarint, offset: start, detail: "\(what()) does not fit in 32 bits")
        }
        return narrow
    }

    private func need(_ count: Int, _ what: @autoclosure () -> String) throws(S2Polyline.DecodingError) {
        guard remaining >= count else {
            throw S2Polyline.DecodingError(
                code: .truncated, offset: offset,
                detail: "\(what()) needs \(count) bytes, \(remaining) left")
        }
    }
}
