// The few protobuf wire rules glyph ranges need (ProtobufReader's other half): varints,
// zig-zag signed integers and length-delimited fields (strings, bytes, nested messages).

/// A protobuf message being written.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    /// A field's key: its number and wire type.
    private mutating func key(_ field: Int, _ wireType: UInt64) {
        appendVarint(UInt64(field) << 3 | wireType)
    }

    private mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// An unsigned integer field (uint32, uint64).
    mutating func varint(_ field: Int, _ value: UInt64) {
        key(field, 0)
        appendVarint(value)
    }

    /// A signed integer field in zig-zag form (sint32).
    mutating func signed(_ field: Int, _ value: Int) {
        key(field, 0)
        appendVarint(UInt64(bitPattern: Int64(value << 1) ^ Int64(value >> 63)))
    }

    /// A bytes field.
    mutating func data(_ field: Int, _ value: [UInt8]) {
        key(field, 2)
        appendVarint(UInt64(value.count))
        bytes += value
    }

    /// A string field.
    mutating func string(_ field: Int, _ value: String) {
        data(field, Array(value.utf8))
    }

    /// A nested message field.
    mutating func message(_ field: Int, _ value: ProtobufWriter) {
        data(field, value.bytes)
    }

    /// The fields of `other`, as fields of this message.
    mutating func append(_ other: ProtobufWriter) {
        bytes += other.bytes
    }
}
