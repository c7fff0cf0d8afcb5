// Shorthands for hand-written Codable conformances: proto3 JSON omits empty repeated
// fields, and absent repeated fields decode as empty.

extension KeyedDecodingContainer {
    /// Decodes an array that may be absent or null (then empty).
    package func decodeArray<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> [T] {
        try decodeIfPresent([T].self, forKey: key) ?? []
    }
}

extension KeyedEncodingContainer {
    /// Encodes an array unless it is empty.
    package mutating func encodeNonEmpty<T: Encodable>(_ values: [T], forKey key: Key) throws {
        if !values.isEmpty { try encode(values, forKey: key) }
    }
}
