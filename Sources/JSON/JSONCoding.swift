import Foundation

/// The JSON coding used on the wire and in the store: strict decoding (unknown fields are
/// errors) and fast compact encoding.
public enum JSONCoding {
    /// Encodes a value as compact JSON; equal values give equal bytes.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try JSONStreamEncoder().encode(value))
    }

    /// Encodes a value as compact JSON, its encoders offering `userInfo`.
    public static func encode<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: any Sendable]) throws -> Data {
        Data(try JSONStreamEncoder(userInfo: userInfo).encode(value))
    }

    /// Encodes a value as compact JSON text (for SQLite columns and event payloads: no
    /// detour through `Data`, which would copy the bytes once more).
    package static func encodeText<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
    }

    /// Encodes a value as indented JSON with sorted keys, for files people read.
    package static func encodePretty<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .prettyPrinted, .sortedKeys]
        return try encoder.encode(value)
    }

    /// Decodes a value strictly; `root` names the document in error paths.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>, root: String) throws(FieldError) -> T {
        try StrictJSONDecoder().decode(type, from: bytes, root: root)
    }
}
