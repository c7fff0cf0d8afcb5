// A reader of the protocol-buffer wire format, just what MVT needs: varints (at most ten
// bytes, no overflow past 64 bits), fixed 32/64-bit values, length-delimited fields and
// skipping unknown fields. Contract: every read checks the bounds of the message it is in;
// malformed input throws `ProtobufReader.Failure`, never reads out of bounds, never traps.

/// Reads fields from one protocol-buffer message held in a byte array slice.
struct ProtobufReader {
    /// Wire types of the protocol-buffer encoding.
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5
    }

    /// Why reading stopped; the decoder turns it into a message naming what was read.
    struct Failure: Error {
        let reason: String
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    /// A reader of `bytes[range]`.
    init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// A reader of the whole array.
    init(_ bytes: [UInt8]) {
        self.init(bytes, range: 0..<bytes.count)
    }

    var isAtEnd: Bool { position >= end }

    /// The next field's number and wire type; throws on a wire type that does not exist.
    mutating func fieldKey() throws(Failure) -> (field: UInt64, wireType: WireType) {
        let key = try varint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw Failure(reason: "invalid wire type \(key & 7)")
        }
        let field = key >> 3
        guard field != 0 else { throw Failure(reason: "field number 0") }
        return (field, wireType)
    }

    /// A base-128 varint of at most ten bytes.
    mutating func varint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw Failure(reason: "a varint runs past the end of its message") }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 { throw Failure(reason: "a varint overflows 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw Failure(reason: "a varint is longer than ten bytes") }
        }
    }

    /// A varint that must fit in 32 bits (MVT's uint32 fields).
    mutating func varint32() throws(Failure) -> UInt32 {
        let value = try varint()
        guard value <= UInt64(UInt32.max) else { throw Failure(reason: "a uint32 value \(value) is out of range") }
        return UInt32(value)
    }

    /// Four little-endian bytes.
    mutating func fixed32() throws(Failure) -> UInt32 {
        guard end - position >= 4 else { throw Failure(reason: "a fixed32 value runs past the end of its message") }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << (8 * UInt32(index)) }
        position += 4
        return value
    }

    /// Eight little-endian bytes.
    mutating func fixed64() throws(Failure) -> UInt64 {
        guard end - position >= 8 else { throw Failure(reason: "a fixed64 value runs past the end of its message") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        return value
    }

    /// The byte range of a length-delimited field's payload (the reader moves past it).
    mutating func lengthDelimited() throws(Failure) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw Failure(reason: "a field of \(length) bytes runs past the end of its message")
        }
        let start = position
        position += Int(length)
        return start..<position
    }

    /// A reader of a nested message's payload.
    mutating func message() throws(Failure) -> ProtobufReader {
        ProtobufReader(bytes, range: try lengthDelimited())
    }

    /// A length-delimited payload as UTF-8 text; invalid UTF-8 is an error.
    mutating func string() throws(Failure) -> String {
        let range = try lengthDelimited()
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw Failure(reason: "a string is not valid UTF-8")
        }
        return text
    }

    /// Appends the varints of a packed repeated uint32 field.
    mutating func packedUInt32(into values: inout [UInt32]) throws(Failure) {
        var packed = try message()
        // Every varint takes at least one byte, so this bounds the reservation by the input.
        values.reserveCapacity(values.count + (packed.end - packed.position))
        while !packed.isAtEnd { values.append(try packed.varint32()) }
    }

    /// Skips a field of an unknown number.
    mutating func skip(_ wireType: WireType) throws(Failure) {
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: _ = try lengthDelimited()
        case .startGroup, .endGroup: throw Failure(reason: "groups (wire types 3 and 4) are not allowed")
        }
    }
}
