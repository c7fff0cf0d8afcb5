// One layout or paint property of a style layer: a constant, an expression, or a legacy
// function (zoom, property or zoom-and-property `stops`), read strictly: a constant of the
// wrong type is an error naming the layer and the property. At draw time the value comes
// from the expression, falling back to the property's default when the expression gives
// something unusable (null, the wrong type), as MapLibre does.

import JSON
import Raster

/// What type a property holds, which decides how its JSON is read and checked.
enum PropertyKind: Sendable {
    case number
    case color
    case string
    /// One of a fixed set of strings.
    case enumeration([String])
    case numberArray
    case stringArray
    case boolean
    /// `text-field`: a string whose {tokens} name properties, or an expression.
    case formatted

    var name: String {
        switch self {
        case .number: "a number"
        case .color: "a colour"
        case .string, .formatted: "a string"
        case .enumeration(let values): "one of " + values.map { "\"\($0)\"" }.joined(separator: ", ")
        case .numberArray: "an array of numbers"
        case .stringArray: "an array of strings"
        case .boolean: "a boolean"
        }
    }

    /// Whether legacy zoom functions interpolate (exponential) or step (interval) by default.
    var interpolates: Bool {
        switch self {
        case .number, .color: true
        default: false
        }
    }
}

/// A property's value source: constant or expression.
struct StyleProperty<Value: Sendable>: Sendable {
    let constant: Value
    let expression: StyleExpression?
    let convert: @Sendable (StyleValue) -> Value?

    /// True when features can differ in this property.
    var isFeatureDependent: Bool { expression?.isFeatureDependent ?? false }
    /// True when the zoom changes this property.
    var isZoomDependent: Bool { expression?.isZoomDependent ?? false }

    /// A constant property.
    init(constant: Value, convert: @escaping @Sendable (StyleValue) -> Value?) {
        self.constant = constant
        expression = nil
        self.convert = convert
    }

    /// An expression with a default for unusable results.
    init(expression: StyleExpression, default value: Value, convert: @escaping @Sendable (StyleValue) -> Value?) {
        constant = value
        self.expression = expression
        self.convert = convert
    }

    /// The value in a context (the default when the expression gives nothing usable).
    func value(_ context: EvaluationContext) -> Value {
        guard let expression else { return constant }
        return convert(expression.evaluate(context)) ?? constant
    }

    /// The value at a zoom, for properties that do not depend on features.
    func value(zoom: Double) -> Value {
        value(EvaluationContext(zoom: zoom))
    }
}

/// Converters from expression values to property types.
enum PropertyConversion {
    static let number: @Sendable (StyleValue) -> Double? = { value in value.number.flatMap { $0.isFinite ? $0 : nil } }
    static let color: @Sendable (StyleValue) -> Color? = { $0.color }
    static let string: @Sendable (StyleValue) -> String? = { value in
        switch value {
        case .string(let text): text
        case .number, .bool: value.text
        default: nil
        }
    }
    static let text: @Sendable (StyleValue) -> String? = { value in value == .null ? nil : value.text }
    static let boolean: @Sendable (StyleValue) -> Bool? = { value in
        if case .bool(let flag) = value { return flag }
        return nil
    }
    static let numbers: @Sendable (StyleValue) -> [Double]? = { value in
        guard case .array(let items) = value else { return nil }
        let numbers = items.compactMap(\.number)
        return numbers.count == items.count ? numbers : nil
    }
    static let strings: @Sendable (StyleValue) -> [String]? = { value in
        guard case .array(let items) = value else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }

    static func enumeration(_ allowed: [String]) -> @Sendable (StyleValue) -> String? {
        { value in value.string.flatMap { allowed.contains($0) ? $0 : nil } }
    }
}

extension ExpressionParser {
    /// Reads a property's JSON (constant, expression or legacy function) as an expression
    /// that yields a value of `kind`; constants are checked against the kind here.
    func propertyExpression(_ json: JSONValue, kind: PropertyKind) throws(BasemapError) -> StyleExpression {
        if let members = json.object, members["stops"] != nil {
            return try legacyFunction(members, kind: kind, json: json)
        }
        if let members = json.object, members["type"]?.string == "identity" {
            guard let property = members["property"]?.string else { throw error("an identity function needs a \"property\"") }
            return .get(property)
        }
        if Self.isExpression(json) { return try parse(json) }
        return .constant(try constant(json, kind: kind))
    }

    /// A constant of a kind, or an error naming what was expected.
    func constant(_ json: JSONValue, kind: PropertyKind) throws(BasemapError) -> StyleValue {
        func wrong() -> BasemapError { error("expected \(kind.name), got \(json.kindDescription) \(json.compact)") }
        switch (kind, json) {
        case (.number, .number(let value, _)) where value.isFinite:
            return .number(value)
        case (.color, .string(let text)):
            guard let color = CSSColor.parse(text) else { throw error("\"\(text)\" is not a colour") }
            return .color(color)
        case (.string, .string), (.formatted, .string):
            return StyleValue(json: json)
        case (.enumeration(let allowed), .string(let text)):
            guard allowed.contains(text) else { throw wrong() }
            return .string(text)
        case (.numberArray, .array(let items)):
            guard items.allSatisfy({ $0.number != nil }) else { throw wrong() }
            return StyleValue(json: json)
        case (.stringArray, .array(let items)):
            guard items.allSatisfy({ $0.string != nil }) else { throw wrong() }
            return StyleValue(json: json)
        case (.boolean, .bool):
            return StyleValue(json: json)
        default:
            throw wrong()
        }
    }

    /// `{"stops": …, "base": …, "type": …, "property": …, "default": …}` as an expression.
    private func legacyFunction(
        _ members: [String: JSONValue], kind: PropertyKind,
        json: JSONValue
    ) throws(BasemapError) -> StyleExpression {
        guard case .array(let stopList)? = members["stops"], !stopList.isEmpty else {
            throw error("a function needs a non-empty \"stops\" array: \(json.compact)")
        }
        let base = members["base"]?.number ?? 1
        let property = members["property"]?.string
        // MapLibre's defaults: interpolate what can be interpolated, else step over zoom or
        // match property values.
        let type = members["type"]?.string ?? (kind.interpolates ? "exponential" : (property == nil ? "interval" : "categorical"))
        var pairs: [(input: JSONValue, output: JSONValue)] = []
        for stop in stopList {
            guard case .array(let pair) = stop, pair.count == 2 else {
                throw error("each stop must be [input, output]: \(stop.compact)")
            }
            pairs.append((pair[0], pair[1]))
        }
        // Zoom-and-property functions: stops keyed by {"zoom", "value"}; one property
        // function per zoom, interpolated (or stepped) over zoom.
        if property != nil, case .object = pairs[0].input {
            var zooms: [(Double, [(JSONValue, JSONValue)])] = []
            for pair in pairs {
                guard let key = pair.input.object, let zoom = key["zoom"]?.number, let value = key["value"] else {
                    throw error("zoom-and-property stops need {\"zoom\", \"value\"} inputs: \(json.compact)")
                }
                if let last = zooms.last, last.0 == zoom {
                    zooms[zooms.count - 1].1.append((value, pair.output))
                } else {
                    zooms.append((zoom, [(value, pair.output)]))
                }
            }
            var stops: [(input: Double, output: StyleExpression)] = []
            for (zoom, inner) in zooms {
                let output = try propertyFunction(
                    inner, property: property ?? "", type: type, base: base, kind: kind,
                    fallback: members["default"], json: json)
                stops.append((zoom, output))
            }
            return kind.interpolates
                ? .interpolate(.exponential(base), .zoom, stops: stops)
                : .step(
                    .zoom, base: stops[0].output,
                    stops: stops)
        }
        if let property {
            return try propertyFunction(
                pairs, property: property, type: type, base: base, kind: kind, fallback: members["default"],
                json: json)
        }
        var stops: [(input: Double, output: StyleExpression)] = []
        for pair in pairs {
            guard let zoom = pair.input.number else { throw error("zoom function stops need number inputs: \(json.compact)") }
            stops.append((zoom, .constant(try constant(pair.output, kind: kind))))
        }
        switch type {
        case "exponential":
            return .interpolate(.exponential(base), .zoom, stops: stops)
        case "interval":
            return .step(.zoom, base: stops[0].output, stops: stops)
        default:
            throw error("a zoom function of type \"\(type)\" is not supported: \(json.compact)")
        }
    }

    private func propertyFunction(
        _ pairs: [(input: JSONValue, output: JSONValue)], property: String, type: String, base: Double,
        kind: PropertyKind, fallback: JSONValue?, json: JSONValue
    ) throws(BasemapError) -> StyleExpression {
        let otherwise: StyleExpression =
            try fallback.map { (value) throws(BasemapError) in .constant(try constant(value, kind: kind)) }
            ?? .constant(.null)
        switch type {
        case "categorical":
            var labels: [StyleValue: Int] = [:]
            var outputs: [StyleExpression] = []
            for pair in pairs {
                labels[StyleValue(json: pair.input)] = outputs.count
                outputs.append(.constant(try constant(pair.output, kind: kind)))
            }
            return .match(.get(property), labels: labels, outputs: outputs, fallback: otherwise)
        case "exponential", "interval":
            var stops: [(input: Double, output: StyleExpression)] = []
            for pair in pairs {
                guard let input = pair.input.number else { throw error("\(type) stops need number inputs: \(json.compact)") }
                stops.append((input, .constant(try constant(pair.output, kind: kind))))
            }
            let value: StyleExpression =
                type == "exponential"
                ? .interpolate(.exponential(base), .get(property), stops: stops)
                : .step(.get(property), base: stops[0].output, stops: stops)
            return .coalesce([value, otherwise])
        case "identity":
            return .coalesce([.get(property), otherwise])
        default:
            throw error("a property function of type \"\(type)\" is not supported: \(json.compact)")
        }
    }
}
