// Parsing expressions and legacy filters from style JSON. Contract: an operator this subset
// does not know, a wrong number of operands or an operand of the wrong JSON type is an
// `invalidStyle` error whose message starts with the place it was found (layer and property,
// given by the caller) and shows the offending JSON. Legacy filters are recognised as
// MapLibre does (by their operators and operand shapes) and become the same tree.

import JSON

/// Turns JSON into expressions; `place` ("layer \"roads\", paint.line-width") starts messages.
struct ExpressionParser {
    let place: String

    func error(_ message: String) -> BasemapError {
        BasemapError(code: .invalidStyle, message: "\(place): \(message)")
    }

    /// True when a JSON array reads as an expression (a known operator first).
    static func isExpression(_ json: JSONValue) -> Bool {
        guard case .array(let items) = json, let name = items.first?.string else { return false }
        return operators.contains(name)
    }

    static let operators: Set<String> = Set([
        "literal", "get", "has", "!has", "zoom", "geometry-type", "id", "var", "let", "==", "!=", "<", "<=", ">", ">=",
        "all", "any", "none", "!", "in", "!in", "match", "case", "coalesce", "step", "interpolate", "interpolate-hcl",
        "interpolate-lab", "to-number", "to-string", "to-boolean", "to-color", "number", "string", "boolean", "concat",
        "upcase", "downcase", "format", "length", "at", "rgb", "rgba",
    ]).union(StyleExpression.MathOperator.allCases.map(\.rawValue))

    // MARK: - Expressions

    /// An expression, or a constant for anything that is not an array.
    func parse(_ json: JSONValue) throws(BasemapError) -> StyleExpression {
        switch json {
        case .array(let items):
            guard let name = items.first?.string else {
                throw error("an array where an expression was expected: \(json.compact) (use [\"literal\", …] for arrays)")
            }
            return try parseOperator(name, Array(items.dropFirst()), json)
        case .object:
            throw error("an object where a value or expression was expected: \(json.compact)")
        default:
            return .constant(StyleValue(json: json))
        }
    }

    private func parseOperator(_ name: String, _ args: [JSONValue], _ json: JSONValue) throws(BasemapError) -> StyleExpression {
        func count(_ range: ClosedRange<Int>) throws(BasemapError) {
            guard range.contains(args.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                throw error("\"\(name)\" takes \(expected) operands, got \(args.count): \(json.compact)")
            }
        }
        func all() throws(BasemapError) -> [StyleExpression] {
            var result: [StyleExpression] = []
            for arg in args { result.append(try parse(arg)) }
            return result
        }
        switch name {
        case "literal":
            try count(1...1)
            return .constant(StyleValue(json: args[0]))
        case "get", "has":
            try count(1...1)
            guard let key = args[0].string else { throw error("\"\(name)\" needs a property name string: \(json.compact)") }
            return name == "get" ? .get(key) : .has(key)
        case "!has":
            // Legacy only, but harmless to read anywhere.
            try count(1...1)
            guard let key = args[0].string else { throw error("\"!has\" needs a property name string: \(json.compact)") }
            return .not(.has(key))
        case "zoom":
            try count(0...0)
            return .zoom
        case "geometry-type":
            try count(0...0)
            return .geometryType
        case "id":
            try count(0...0)
            return .featureID
        case "var":
            try count(1...1)
            guard let key = args[0].string else { throw error("\"var\" needs a name: \(json.compact)") }
            return .variable(key)
        case "let":
            guard args.count >= 3, args.count % 2 == 1 else { throw error("\"let\" needs name/value pairs and a body: \(json.compact)") }
            var bindings: [(name: String, value: StyleExpression)] = []
            for index in stride(from: 0, to: args.count - 1, by: 2) {
                guard let key = args[index].string else { throw error("\"let\" names must be strings: \(json.compact)") }
                bindings.append((key, try parse(args[index + 1])))
            }
            return .binding(bindings, try parse(args[args.count - 1]))
        case "==", "!=", "<", "<=", ">", ">=":
            try count(2...2)
            guard let comparison = StyleExpression.Comparison(rawValue: name) else { throw error("unknown comparison \(name)") }
            return .compare(comparison, try parse(args[0]), try parse(args[1]))
        case "all":
            return .all(try all())
        case "any":
            return .any(try all())
        case "none":
            return .not(.any(try all()))
        case "!":
            try count(1...1)
            return .not(try parse(args[0]))
        case "in":
            try count(2...2)
            return .contains(needle: try parse(args[0]), haystack: try parse(args[1]))
        case "match":
            return try parseMatch(args, json)
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw error("\"case\" needs condition/output pairs and a fallback: \(json.compact)")
            }
            var branches: [(condition: StyleExpression, output: StyleExpression)] = []
            for index in stride(from: 0, to: args.count - 1, by: 2) {
                branches.append((try parse(args[index]), try parse(args[index + 1])))
            }
            return .cases(branches, fallback: try parse(args[args.count - 1]))
        case "coalesce":
            return .coalesce(try all())
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw error("\"step\" needs an input, a base output and stop/output pairs: \(json.compact)")
            }
            return .step(try parse(args[0]), base: try parse(args[1]), stops: try stops(Array(args.dropFirst(2)), json))
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            // hcl and lab interpolate in RGB here: colour stops of basemap styles are close
            // enough that the difference is invisible.
            guard args.count >= 4, args.count % 2 == 0 else {
                throw error("\"\(name)\" needs a type, an input and stop/output pairs: \(json.compact)")
            }
            return .interpolate(try interpolation(args[0]), try parse(args[1]), stops: try stops(Array(args.dropFirst(2)), json))
        case "to-number", "to-string", "to-boolean", "to-color", "number", "string", "boolean":
            guard !args.isEmpty, let conversion = StyleExpression.Conversion(rawValue: name) else {
                throw error("\"\(name)\" needs at least one operand: \(json.compact)")
            }
            return .convert(conversion, try all())
        case "concat":
            return .concat(try all())
        case "format":
            return try parseFormat(args)
        case "upcase", "downcase":
            try count(1...1)
            return .changeCase(upper: name == "upcase", try parse(args[0]))
        case "length":
            try count(1...1)
            return .length(try parse(args[0]))
        case "at":
            try count(2...2)
            return .at(try parse(args[0]), try parse(args[1]))
        case "rgb", "rgba":
            try count(name == "rgb" ? 3...3 : 4...4)
            return .rgba(try all())
        default:
            if let op = StyleExpression.MathOperator(rawValue: name) {
                switch op {
                case .e, .pi, .ln2: try count(0...0)
                case .add, .multiply, .min, .max: try count(1...64)
                case .subtract: try count(1...2)
                case .divide, .remainder, .power: try count(2...2)
                default: try count(1...1)
                }
                return .math(op, try all())
            }
            throw error("unknown expression operator \"\(name)\" in \(json.compact)")
        }
    }

    private func parseMatch(_ args: [JSONValue], _ json: JSONValue) throws(BasemapError) -> StyleExpression {
        guard args.count >= 4, args.count % 2 == 0 else {
            throw error("\"match\" needs an input, label/output pairs and a fallback: \(json.compact)")
        }
        var labels: [StyleValue: Int] = [:]
        var outputs: [StyleExpression] = []
        for index in stride(from: 1, to: args.count - 1, by: 2) {
            let branch = outputs.count
            let labelJSON = args[index]
            let items = labelJSON.array ?? [labelJSON]
            for item in items {
                switch item {
                case .string, .number:
                    // The first branch with a label wins, as in MapLibre (which rejects duplicates).
                    if labels[StyleValue(json: item)] == nil { labels[StyleValue(json: item)] = branch }
                default:
                    throw error("\"match\" labels must be strings or numbers, got \(item.compact)")
                }
            }
            outputs.append(try parse(args[index + 1]))
        }
        return .match(try parse(args[0]), labels: labels, outputs: outputs, fallback: try parse(args[args.count - 1]))
    }

    /// `format`: the text sections concatenated (per-section fonts and scales are not drawn).
    private func parseFormat(_ args: [JSONValue]) throws(BasemapError) -> StyleExpression {
        var parts: [StyleExpression] = []
        for arg in args {
            if case .object = arg { continue }
            parts.append(try parse(arg))
        }
        return .concat(parts)
    }

    private func interpolation(_ json: JSONValue) throws(BasemapError) -> StyleExpression.Interpolation {
        guard case .array(let items) = json, let kind = items.first?.string else {
            throw error("an interpolation type must be [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", …]: \(json.compact)")
        }
        let numbers = items.dropFirst().compactMap(\.number)
        switch kind {
        case "linear" where items.count == 1:
            return .linear
        case "exponential" where items.count == 2 && numbers.count == 1:
            return .exponential(numbers[0])
        case "cubic-bezier" where items.count == 5 && numbers.count == 4:
            return .cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
        default:
            throw error("unknown interpolation \(json.compact)")
        }
    }

    private func stops(_ items: [JSONValue], _ json: JSONValue) throws(BasemapError) -> [(input: Double, output: StyleExpression)] {
        var result: [(input: Double, output: StyleExpression)] = []
        for index in stride(from: 0, to: items.count, by: 2) {
            guard let input = items[index].number else {
                throw error("stop inputs must be numbers, got \(items[index].compact) in \(json.compact)")
            }
            if let previous = result.last, input <= previous.input {
                throw error("stop inputs must increase (\(previous.input) then \(input)) in \(json.compact)")
            }
            result.append((input, try parse(items[index + 1])))
        }
        return result
    }

    // MARK: - Filters

    /// A filter in either form: legacy (["==", "class", "park"]) or expression.
    func parseFilter(_ json: JSONValue) throws(BasemapError) -> StyleExpression {
        if case .bool(let value) = json { return .constant(.bool(value)) }
        guard case .array(let items) = json, !items.isEmpty else {
            throw error("a filter must be an array, got \(json.compact)")
        }
        return Self.isExpressionFilter(json) ? try parse(json) : try parseLegacyFilter(items, json)
    }

    /// MapLibre's rule for telling the two filter forms apart.
    static func isExpressionFilter(_ json: JSONValue) -> Bool {
        if case .bool = json { return true }
        guard case .array(let items) = json, let name = items.first?.string else { return false }
        switch name {
        case "has":
            return items.count >= 2 && items[1].string != "$id" && items[1].string != "$type"
        case "in":
            return items.count >= 3 && (items[1].string == nil || items[2].array != nil)
        case "!in", "!has", "none":
            return false
        case "==", "!=", ">", ">=", "<", "<=":
            return items.count != 3 || items[1].array != nil || items[2].array != nil
        case "any", "all":
            return items.dropFirst().allSatisfy { item in
                if case .bool = item { return true }
                return isExpressionFilter(item)
            }
        default:
            return true
        }
    }

    private func parseLegacyFilter(_ items: [JSONValue], _ json: JSONValue) throws(BasemapError) -> StyleExpression {
        guard let name = items[0].string else { throw error("a filter must start with an operator: \(json.compact)") }
        let args = Array(items.dropFirst())
        func key(_ value: JSONValue) throws(BasemapError) -> StyleExpression {
            guard let name = value.string else { throw error("a legacy filter needs a key string: \(json.compact)") }
            switch name {
            case "$type": return .geometryType
            case "$id": return .featureID
            default: return .get(name)
            }
        }
        func children() throws(BasemapError) -> [StyleExpression] {
            var result: [StyleExpression] = []
            for arg in args {
                guard case .array(let inner) = arg, !inner.isEmpty else {
                    throw error("\"\(name)\" operands must be filters: \(json.compact)")
                }
                result.append(try parseLegacyFilter(inner, arg))
            }
            return result
        }
        switch name {
        case "==", "!=", "<", "<=", ">", ">=":
            guard args.count == 2, let comparison = StyleExpression.Comparison(rawValue: name) else {
                throw error("\"\(name)\" takes a key and a value: \(json.compact)")
            }
            return .compare(comparison, try key(args[0]), .constant(StyleValue(json: args[1])))
        case "in", "!in":
            guard !args.isEmpty else { throw error("\"\(name)\" takes a key and values: \(json.compact)") }
            let test = StyleExpression.oneOf(try key(args[0]), Set(args.dropFirst().map(StyleValue.init(json:))))
            return name == "in" ? test : .not(test)
        case "has", "!has":
            guard args.count == 1, let property = args[0].string else { throw error("\"\(name)\" takes a key: \(json.compact)") }
            let test: StyleExpression = property == "$type" || property == "$id" ? .constant(.bool(true)) : .has(property)
            return name == "has" ? test : .not(test)
        case "all":
            return .all(try children())
        case "any":
            return .any(try children())
        case "none":
            return .not(.any(try children()))
        default:
            throw error("unknown filter operator \"\(name)\" in \(json.compact)")
        }
    }
}

extension StyleExpression {
    /// True when the value can differ between features (it reads properties, ids or types).
    var isFeatureDependent: Bool {
        switch self {
        case .get, .has, .geometryType, .featureID: return true
        case .constant, .zoom, .variable: return false
        default: return children.contains { $0.isFeatureDependent }
        }
    }

    /// True when the value can differ between zoom levels.
    var isZoomDependent: Bool {
        switch self {
        case .zoom: return true
        case .constant, .get, .has, .geometryType, .featureID, .variable: return false
        default: return children.contains { $0.isZoomDependent }
        }
    }

    /// The operands.
    var children: [StyleExpression] {
        switch self {
        case .constant, .get, .has, .zoom, .geometryType, .featureID, .variable: return []
        case .binding(let bindings, let body): return bindings.map(\.value) + [body]
        case .compare(_, let a, let b), .contains(let a, let b), .at(let a, let b): return [a, b]
        case .all(let items), .any(let items), .coalesce(let items), .convert(_, let items), .concat(let items),
            .math(_, let items), .rgba(let items):
            return items
        case .not(let item), .oneOf(let item, _), .changeCase(_, let item), .length(let item): return [item]
        case .match(let input, _, let outputs, let fallback): return [input] + outputs + [fallback]
        case .cases(let branches, let fallback): return branches.flatMap { [$0.condition, $0.output] } + [fallback]
        case .step(let input, let base, let stops): return [input, base] + stops.map(\.output)
        case .interpolate(_, let input, let stops): return [input] + stops.map(\.output)
        }
    }
}
