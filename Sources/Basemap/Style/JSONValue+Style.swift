// Reading style documents through the JSON module's values: the accessors a style reader
// wants (a member table, numbers as Doubles as in JavaScript, which MapLibre's style
// specification assumes) and a compact rendering for messages.

import JSON

extension JSONValue {
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value, _) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// An object's members by name (the parser refuses duplicate names).
    var object: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Compact JSON text, for messages.
    var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value, _): return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let values): return "[" + values.map(\.compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value.compact)" }.joined(separator: ",") + "}"
        }
    }
}
