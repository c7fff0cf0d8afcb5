// The values style expressions compute with: null, booleans, numbers, strings, colours and
// arrays (MapLibre's expression types without objects, collators and images, which nothing
// drawn here needs).

import JSON
import Raster

/// A value an expression evaluates to.
enum StyleValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(Color)
    case array([StyleValue])

    /// A JSON constant as a value (objects have no value form: null).
    init(json: JSONValue) {
        switch json {
        case .null, .object: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let value, _): self = .number(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(StyleValue.init(json:)))
        }
    }

    /// A tile property value as a style value (all numbers become Doubles).
    init(_ value: VectorTile.Value) {
        switch value {
        case .string(let text): self = .string(text)
        case .float(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .int(let number): self = .number(Double(number))
        case .uint(let number): self = .number(Double(number))
        case .sint(let number): self = .number(Double(number))
        case .bool(let flag): self = .bool(flag)
        }
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as a colour: a colour, or a string CSS can parse.
    var color: Color? {
        switch self {
        case .color(let value): value
        case .string(let text): CSSColor.parse(text)
        default: nil
        }
    }

    /// MapLibre's truthiness for `to-boolean`: false for null, false, 0, NaN and "".
    var truthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .number(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .color, .array: true
        }
    }

    /// The value as text, as `to-string` gives it.
    var text: String {
        switch self {
        case .null: return ""
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .string(let value): return value
        case .color(let value):
            return "rgba(\(value.red),\(value.green),\(value.blue),\(Double(value.alpha) / 255))"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        }
    }

    /// The type's name, for messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .color: "color"
        case .array: "array"
        }
    }
}
