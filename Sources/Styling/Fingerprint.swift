/// A 64-bit FNV-1a digest of bytes: cheap, stable across runs and platforms; used to notice
/// when style files change and to build preview ETags. Not for security.
package struct Fingerprint: Hashable, Sendable {
    /// The digest so far.
    package private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// An empty digest.
    package init() {}

    /// Adds bytes.
    package mutating func add(_ bytes: some Sequence<UInt8>) {
        // Contiguous storage (arrays, Data) hashes from a buffer: iterating Data byte by
        // byte costs more than the hashing.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in add(buffer) }
        guard done == nil else { return }
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        value = hash
    }

    private mutating func add(_ buffer: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in buffer {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// Adds a string's UTF-8 and a separator, so that ("ab","c") and ("a","bc") differ.
    package mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0xFF))
    }

    /// The digest as 16 lower-case hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
