// What ListVehicles and SearchVehicles ask of a vehicle's attributes: the `filter` (AIP-160,
// AttributeFilterParser) and the three `required*Attribute*` fields all become one
// condition, a tree of `attributes.KEY = "VALUE"` restrictions under AND and OR. Fleet Engine
// stores attributes as strings, so a restriction compares the attribute's text: a string as
// it is, a boolean as `true`/`false`, a number as ``Attribute/filterText`` writes it.

/// One `attributes.KEY = "VALUE"` restriction.
public struct AttributeRestriction: Hashable, Sendable {
    /// The attribute's key.
    public var key: String
    /// The text its value must have.
    public var value: String

    /// Creates a restriction.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The restriction as it appears in a vehicle's ``AttributeCondition/indexText(of:)``:
    /// a store finds it there as a substring.
    package var indexNeedle: String { AttributeCondition.entry(key, value) }
}

/// A condition on a vehicle's attributes: restrictions joined by AND and OR.
public indirect enum AttributeCondition: Hashable, Sendable {
    /// The vehicle has the attribute with that text.
    case restriction(AttributeRestriction)
    /// Every condition holds (true when empty).
    case all([AttributeCondition])
    /// At least one condition holds (false when empty).
    case any([AttributeCondition])

    /// Whether attributes of that text satisfy the condition.
    package func matches(_ texts: [String: String]) -> Bool {
        switch self {
        case .restriction(let r): return texts[r.key] == r.value
        case .all(let parts): return parts.allSatisfy { $0.matches(texts) }
        case .any(let parts): return parts.contains { $0.matches(texts) }
        }
    }

    /// Whether a vehicle's attributes satisfy the condition.
    package func matches(_ attributes: [Attribute]) -> Bool { matches(Self.texts(of: attributes)) }

    /// The restrictions in the condition, in order.
    package var restrictions: [AttributeRestriction] {
        switch self {
        case .restriction(let r): return [r]
        case .all(let parts), .any(let parts): return parts.flatMap(\.restrictions)
        }
    }

    /// Every attribute's text by key.
    package static func texts(of attributes: [Attribute]) -> [String: String] {
        var texts: [String: String] = [:]
        for attribute in attributes { if let text = attribute.filterText { texts[attribute.key] = text } }
        return texts
    }

    // MARK: Index text

    /// Separates entries in ``indexText(of:)``; escaped inside keys and values.
    static let separator: Character = "\u{1F}"

    /// A vehicle's attributes as one string in which each restriction they satisfy appears
    /// as its ``AttributeRestriction/indexNeedle`` and no other restriction does: what the SQL
    /// stores keep beside a vehicle to test restrictions with a substring search.
    package static func indexText(of attributes: [Attribute]) -> String {
        let entries = texts(of: attributes).sorted { $0.key < $1.key }.map { entry($0.key, $0.value) }
        return entries.joined()
    }

    /// `␟key=value␟` with `%`, `=` and `␟` percent-escaped in both, so an entry can only ever
    /// match a whole entry.
    static func entry(_ key: String, _ value: String) -> String {
        "\(separator)\(escape(key))=\(escape(value))\(separator)"
    }

    private static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "%" || $0 == "=" || $0 == separator }) else { return text }
        var escaped = ""
        for character in text {
            switch character {
            case "%": escaped += "%25"
            case "=": escaped += "%3D"
            case separator: escaped += "%1F"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension Attribute {
    /// The attribute's value as text, as Fleet Engine compares it in filters: a string as it
    /// is, a boolean as `true` or `false`, a whole number without a fraction (`10`), any other
    /// number in its shortest form (`2.5`); nil when no value is set.
    package var filterText: String? {
        if let stringValue { return stringValue }
        if let boolValue { return boolValue ? "true" : "false" }
        if let numberValue {
            if numberValue == numberValue.rounded(), abs(numberValue) < 1e15 { return String(Int64(numberValue)) }
            return String(numberValue)
        }
        return nil
    }
}
