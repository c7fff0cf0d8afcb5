// The writing side of ByteReader: little-endian fixed-width values and varints.

extension [UInt8] {
    /// Appends the low `byteCount` bytes of `value`, least significant first.
    mutating func appendLittleEndian(_ value: UInt64, byteCount: Int) {
        for k in 0..<byteCount { append(UInt8(truncatingIfNeeded: value >> UInt64(8 * k))) }
    }

    /// Appends a direction as three little-endian doubles, as S2 stores an S2Point.
    mutating func appendVector(_ v: Vector3) {
        appendLittleEndian(v.x.bitPattern, byteCount: 8)
        appendLittleEndian(v.y.bitPattern, byteCount: 8)
        appendLittleEndian(v.z.bitPattern, byteCount: 8)
    }

    /// Appends a varint: 7 bits a byte, least significant group first, high bit = more.
    mutating func appendVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        append(UInt8(v))
    }
}
