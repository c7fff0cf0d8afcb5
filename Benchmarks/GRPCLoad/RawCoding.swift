import GRPCCore

/// Messages as their bytes: the load client sends what ``WireBytes`` encoded.
struct RawSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
}

/// Answers as their size: the load client checks the status, not the content.
struct SizeDeserializer: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Int { serializedMessageBytes.count }
}
