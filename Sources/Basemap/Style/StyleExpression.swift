// Style expressions: the subset of MapLibre's expression language that published basemap
// styles use for filters and for zoom- and data-driven properties, and legacy filters and
// functions, which parsing turns into the same tree. Contract: evaluation is total: a type
// mismatch at run time (comparing a string with a number, `get` of a missing property)
// gives null or false, which callers turn into the property's default, as MapLibre does
// with expression errors; it never traps and always ends (the tree is finite, there are
// no loops).

import Foundation
import Raster

/// A parsed expression.
indirect enum StyleExpression: Sendable {
    /// A constant (`literal`, or a bare JSON value).
    case constant(StyleValue)
    /// A feature property by name (null when absent).
    case get(String)
    /// Whether a feature has a property.
    case has(String)
    /// The zoom level the style is evaluated at.
    case zoom
    /// "Point", "LineString" or "Polygon".
    case geometryType
    /// The feature id (null when absent).
    case featureID
    /// A `let` binding's value.
    case variable(String)
    /// `let`: names bound for the body.
    case binding([(name: String, value: StyleExpression)], StyleExpression)
    /// ==, !=, <, <=, >, >=.
    case compare(Comparison, StyleExpression, StyleExpression)
    /// True when every operand is true.
    case all([StyleExpression])
    /// True when any operand is true.
    case any([StyleExpression])
    /// Negation.
    case not(StyleExpression)
    /// Legacy `in`: the input equals one of the values.
    case oneOf(StyleExpression, Set<StyleValue>)
    /// The expression `in`: a substring of a string or an element of an array.
    case contains(needle: StyleExpression, haystack: StyleExpression)
    /// `match`: the output whose label equals the input, else the fallback.
    case match(StyleExpression, labels: [StyleValue: Int], outputs: [StyleExpression], fallback: StyleExpression)
    /// `case`: the first output whose condition is true, else the fallback.
    case cases([(condition: StyleExpression, output: StyleExpression)], fallback: StyleExpression)
    /// The first operand that is not null.
    case coalesce([StyleExpression])
    /// `step`: the output of the last stop not above the input.
    case step(StyleExpression, base: StyleExpression, stops: [(input: Double, output: StyleExpression)])
    /// `interpolate`: between the stops around the input.
    case interpolate(Interpolation, StyleExpression, stops: [(input: Double, output: StyleExpression)])
    /// Conversions and type assertions.
    case convert(Conversion, [StyleExpression])
    /// String concatenation of the operands' texts.
    case concat([StyleExpression])
    /// Upper- or lower-casing.
    case changeCase(upper: Bool, StyleExpression)
    /// Arithmetic.
    case math(MathOperator, [StyleExpression])
    /// Length of a string or array.
    case length(StyleExpression)
    /// Element of an array.
    case at(StyleExpression, StyleExpression)
    /// `rgb` / `rgba`.
    case rgba([StyleExpression])

    enum Comparison: String, Sendable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    enum Interpolation: Sendable {
        case linear
        case exponential(Double)
        case cubicBezier(Double, Double, Double, Double)
    }

    enum Conversion: String, Sendable {
        case toNumber = "to-number"
        case toString = "to-string"
        case toBoolean = "to-boolean"
        case toColor = "to-color"
        case number, string, boolean
    }

    enum MathOperator: String, Sendable, CaseIterable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
        case remainder = "%"
        case power = "^"
        case min, max, round, floor, ceil, abs, sqrt, ln, log10, log2
        case e, pi, ln2
    }
}

/// What expressions evaluate against: a zoom and, for data-driven values, a feature.
struct EvaluationContext {
    var zoom: Double
    var feature: FeatureView?

    init(zoom: Double, feature: FeatureView? = nil) {
        self.zoom = zoom
        self.feature = feature
    }
}

extension StyleExpression {
    /// The value in a context.
    func evaluate(_ context: EvaluationContext) -> StyleValue {
        evaluate(context, [])
    }

    private func evaluate(_ context: EvaluationContext, _ scope: [(String, StyleValue)]) -> StyleValue {
        switch self {
        case .constant(let value):
            return value
        case .get(let name):
            return context.feature?.property(name) ?? .null
        case .has(let name):
            return .bool(context.feature?.property(name) != nil)
        case .zoom:
            return .number(context.zoom)
        case .geometryType:
            return context.feature.map { .string($0.geometryTypeName) } ?? .null
        case .featureID:
            return context.feature?.id.map { .number(Double($0)) } ?? .null
        case .variable(let name):
            return scope.last { $0.0 == name }?.1 ?? .null
        case .binding(let bindings, let body):
            var inner = scope
            for binding in bindings { inner.append((binding.name, binding.value.evaluate(context, inner))) }
            return body.evaluate(context, inner)
        case .compare(let comparison, let left, let right):
            return .bool(Self.compare(comparison, left.evaluate(context, scope), right.evaluate(context, scope)))
        case .all(let operands):
            for operand in operands where operand.evaluate(context, scope) != .bool(true) { return .bool(false) }
            return .bool(true)
        case .any(let operands):
            for operand in operands where operand.evaluate(context, scope) == .bool(true) { return .bool(true) }
            return .bool(false)
        case .not(let operand):
            return .bool(operand.evaluate(context, scope) != .bool(true))
        case .oneOf(let input, let values):
            return .bool(values.contains(input.evaluate(context, scope)))
        case .contains(let needle, let haystack):
            let item = needle.evaluate(context, scope)
            switch haystack.evaluate(context, scope) {
            case .string(let text): return .bool(item.string.map { text.contains($0) } ?? false)
            case .array(let values): return .bool(values.contains(item))
            default: return .bool(false)
            }
        case .match(let input, let labels, let outputs, let fallback):
            let value = input.evaluate(context, scope)
            if let branch = labels[value] { return outputs[branch].evaluate(context, scope) }
            return fallback.evaluate(context, scope)
        case .cases(let branches, let fallback):
            for branch in branches where branch.condition.evaluate(context, scope) == .bool(true) {
                return branch.output.evaluate(context, scope)
            }
            return fallback.evaluate(context, scope)
        case .coalesce(let operands):
            for operand in operands {
                let value = operand.evaluate(context, scope)
                if value != .null { return value }
            }
            return .null
        case .step(let input, let base, let stops):
            guard let x = input.evaluate(context, scope).number else { return .null }
            var chosen = base
            for stop in stops {
                if stop.input <= x { chosen = stop.output } else { break }
            }
            return chosen.evaluate(context, scope)
        case .interpolate(let kind, let input, let stops):
            guard let x = input.evaluate(context, scope).number, let first = stops.first, let last = stops.last else {
                return .null
            }
            if x <= first.input { return first.output.evaluate(context, scope) }
            if x >= last.input { return last.output.evaluate(context, scope) }
            var upper = 1
            while upper < stops.count - 1 && stops[upper].input <= x { upper += 1 }
            let lower = stops[upper - 1]
            let higher = stops[upper]
            let t = Self.interpolationFactor(kind, x: x, from: lower.input, to: higher.input)
            return Self.interpolate(lower.output.evaluate(context, scope), higher.output.evaluate(context, scope), t)
        case .convert(let conversion, let operands):
            return Self.convert(conversion, operands.map { $0.evaluate(context, scope) })
        case .concat(let operands):
            return .string(operands.map { $0.evaluate(context, scope).text }.joined())
        case .changeCase(let upper, let operand):
            let text = operand.evaluate(context, scope).text
            return .string(upper ? text.uppercased() : text.lowercased())
        case .math(let op, let operands):
            return Self.math(op, operands.map { $0.evaluate(context, scope) })
        case .length(let operand):
            switch operand.evaluate(context, scope) {
            case .string(let text): return .number(Double(text.count))
            case .array(let values): return .number(Double(values.count))
            default: return .null
            }
        case .at(let index, let array):
            guard let position = index.evaluate(context, scope).number, case .array(let values) = array.evaluate(context, scope),
                position >= 0, position < Double(values.count), position == position.rounded()
            else { return .null }
            return values[Int(position)]
        case .rgba(let operands):
            let values = operands.map { $0.evaluate(context, scope).number }
            guard values.count >= 3, let r = values[0], let g = values[1], let b = values[2] else { return .null }
            let a = values.count == 4 ? values[3] ?? 1 : 1
            return CSSColor.color(r / 255, g / 255, b / 255, a).map(StyleValue.color) ?? .null
        }
    }

    /// Comparison with MapLibre's run-time rules: equality across types is false; ordering
    /// applies to two numbers or two strings only.
    static func compare(_ comparison: Comparison, _ left: StyleValue, _ right: StyleValue) -> Bool {
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default: break
        }
        let order: Int
        switch (left, right) {
        case (.number(let a), .number(let b)):
            guard !a.isNaN, !b.isNaN else { return false }
            order = a < b ? -1 : (a > b ? 1 : 0)
        case (.string(let a), .string(let b)):
            order = a < b ? -1 : (a > b ? 1 : 0)
        default:
            return false
        }
        switch comparison {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }

    /// Where x lies between two stops, 0…1, shaped by the interpolation kind.
    static func interpolationFactor(_ kind: Interpolation, x: Double, from lower: Double, to upper: Double) -> Double {
        let span = upper - lower
        guard span > 0 else { return 0 }
        let progress = x - lower
        switch kind {
        case .linear:
            return progress / span
        case .exponential(let base):
            if base == 1 { return progress / span }
            let value = (pow(base, progress) - 1) / (pow(base, span) - 1)
            return value.isFinite ? value : progress / span
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return cubicBezier(progress / span, x1, y1, x2, y2)
        }
    }

    /// The y of the unit cubic Bézier (0,0),(x1,y1),(x2,y2),(1,1) at x (CSS timing functions).
    static func cubicBezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func curve(_ t: Double, _ a: Double, _ b: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t
        }
        // Bisection on x(t), which is monotone for control x in 0…1: 50 halvings are exact to
        // the last bit of a Double.
        var low = 0.0
        var high = 1.0
        for _ in 0..<50 {
            let middle = (low + high) / 2
            if curve(middle, x1, x2) < x { low = middle } else { high = middle }
        }
        return curve((low + high) / 2, y1, y2)
    }

    /// Linear interpolation of numbers, colours (premultiplied, as MapLibre) and number arrays.
    static func interpolate(_ a: StyleValue, _ b: StyleValue, _ t: Double) -> StyleValue {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(x + (y - x) * t)
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            return .array(zip(xs, ys).map { interpolate($0, $1, t) })
        default:
            guard let x = a.color, let y = b.color else { return t < 1 ? a : b }
            func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
            let alphaX = Double(x.alpha) / 255
            let alphaY = Double(y.alpha) / 255
            let alpha = mix(alphaX, alphaY)
            guard alpha > 0 else { return .color(.transparent) }
            func channel(_ p: UInt8, _ q: UInt8) -> Double { mix(Double(p) / 255 * alphaX, Double(q) / 255 * alphaY) / alpha }
            return CSSColor.color(channel(x.red, y.red), channel(x.green, y.green), channel(x.blue, y.blue), alpha)
                .map(StyleValue.color) ?? .null
        }
    }

    private static func convert(_ conversion: Conversion, _ values: [StyleValue]) -> StyleValue {
        switch conversion {
        case .toNumber:
            for value in values {
                switch value {
                case .number: return value
                case .bool(let flag): return .number(flag ? 1 : 0)
                case .string(let text):
                    if let number = Double(text.trimmingCharacters(in: .whitespaces)) { return .number(number) }
                case .null: return .number(0)
                default: break
                }
            }
            return .null
        case .toString:
            return .string(values.first?.text ?? "")
        case .toBoolean:
            return .bool(values.first?.truthy ?? false)
        case .toColor:
            for value in values { if let color = value.color { return .color(color) } }
            return .null
        case .number:
            return values.first { $0.number != nil } ?? .null
        case .string:
            return values.first { $0.string != nil } ?? .null
        case .boolean:
            return values.first { if case .bool = $0 { true } else { false } } ?? .null
        }
    }

    private static func math(_ op: MathOperator, _ values: [StyleValue]) -> StyleValue {
        let numbers = values.compactMap(\.number)
        guard numbers.count == values.count else { return .null }
        let result: Double?
        switch op {
        case .add: result = numbers.reduce(0, +)
        case .multiply: result = numbers.reduce(1, *)
        case .subtract: result = numbers.count == 1 ? -numbers[0] : numbers.count == 2 ? numbers[0] - numbers[1] : nil
        case .divide: result = numbers.count == 2 ? numbers[0] / numbers[1] : nil
        case .remainder: result = numbers.count == 2 ? numbers[0].truncatingRemainder(dividingBy: numbers[1]) : nil
        case .power: result = numbers.count == 2 ? pow(numbers[0], numbers[1]) : nil
        case .min: result = numbers.min()
        case .max: result = numbers.max()
        case .round: result = numbers.first.map { $0.rounded(.toNearestOrAwayFromZero) }
        case .floor: result = numbers.first.map { $0.rounded(.down) }
        case .ceil: result = numbers.first.map { $0.rounded(.up) }
        case .abs: result = numbers.first.map { Swift.abs($0) }
        case .sqrt: result = numbers.first.map { $0.squareRoot() }
        case .ln: result = numbers.first.map { Foundation.log($0) }
        case .log10: result = numbers.first.map { Foundation.log10($0) }
        case .log2: result = numbers.first.map { Foundation.log2($0) }
        case .e: result = M_E
        case .pi: result = Double.pi
        case .ln2: result = M_LN2
        }
        return result.map(StyleValue.number) ?? .null
    }
}
