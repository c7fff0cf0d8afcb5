// Fleet Engine deprecated some fields in favour of others (`horizontalAccuracy` for
// `latlngAccuracy`, an attribute's `value` for `stringValue`); clients still send them, some
// with both. A deprecated field is read as its replacement, and when both are sent they must
// agree: a disagreement is refused naming both, rather than one silently winning.

import JSON

enum DeprecatedTwin {
    /// The value of `key`, or of its deprecated twin when only that is sent; both must agree.
    static func read<T: Decodable & Equatable, Key: CodingKey>(
        _ type: T.Type, _ c: KeyedDecodingContainer<Key>, _ key: Key, deprecated: Key
    ) throws -> T? {
        let current = try c.decodeIfSet(T.self, forKey: key)
        guard let old = try c.decodeIfSet(T.self, forKey: deprecated) else { return current }
        if let current, current != old { throw disagreement(c, key, current, deprecated: deprecated, old) }
        return old
    }

    /// The error for a field and its deprecated twin sent with different values: at the
    /// deprecated one's path, naming both.
    static func disagreement<Key: CodingKey>(
        _ c: KeyedDecodingContainer<Key>, _ key: Key, _ value: Any, deprecated: Key, _ old: Any
    ) -> FieldValidationError {
        FieldValidationError(
            codingPath: c.codingPath + [deprecated],
            message:
                "'\(deprecated.stringValue)' (\(old)) is the deprecated form of '\(key.stringValue)' (\(value)); send one, or both with the same value"
        )
    }
}
