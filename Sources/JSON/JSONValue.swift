// A parsed JSON document. Objects keep their members in order (so errors and re-encodings
// follow the input) and duplicate keys are rejected when parsing, as Google APIs do.

/// A JSON value as parsed by ``JSONParser``.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number; `integer` is set when the literal had no fraction or exponent and fits Int64.
    case number(Double, integer: Int64?)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x, _), .number(let y, _)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// A short name of the value's kind for error messages ("a string", "an object").
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let d, let integer):
            var c = encoder.singleValueContainer()
            if let integer { try c.encode(integer) } else { try c.encode(d) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for element in elements { try c.encode(element) }
        case .object(let members):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for member in members { try c.encode(member.value, forKey: AnyCodingKey(member.key)) }
        }
    }
}
