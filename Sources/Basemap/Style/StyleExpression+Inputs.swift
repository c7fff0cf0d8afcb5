// What of a feature an expression reads, and the expression with that input made a constant:
// for evaluating a filter once per distinct value of a property rather than once per feature
// (LayerFilter). Contract: for a feature whose input has value `v` (null when absent),
// `e.fixing(input, to: v).evaluate(EvaluationContext(zoom: z))` equals
// `e.evaluate(EvaluationContext(zoom: z, feature: feature))` whenever `e.featureReads` is
// `.one(input)`: nothing else of the feature is read.

extension StyleExpression {
    /// The one thing of a feature an expression reads.
    enum FeatureInput: Hashable {
        /// A property by name (`get` and `has`).
        case property(String)
        /// The geometry type.
        case geometryType
    }

    /// What of a feature an expression reads.
    enum FeatureReads: Hashable {
        /// Nothing: the value depends on the zoom at most.
        case nothing
        /// One input only.
        case one(FeatureInput)
        /// More than one input, or the feature id.
        case several
    }

    /// What of a feature the expression reads.
    var featureReads: FeatureReads {
        switch self {
        case .get(let name), .has(let name): return .one(.property(name))
        case .geometryType: return .one(.geometryType)
        case .featureID: return .several
        default:
            var reads = FeatureReads.nothing
            for child in children {
                switch (reads, child.featureReads) {
                case (_, .nothing): continue
                case (_, .several): return .several
                case (.nothing, .one): reads = child.featureReads
                case (.one(let known), .one(let input)): if known != input { return .several }
                case (.several, _): return .several
                }
            }
            return reads
        }
    }

    /// The expression with `input` read as `value` (null: the feature lacks the property).
    func fixing(_ input: FeatureInput, to value: StyleValue) -> StyleExpression {
        func fixed(_ expression: StyleExpression) -> StyleExpression { expression.fixing(input, to: value) }
        switch self {
        case .get(let name):
            return input == .property(name) ? .constant(value) : self
        case .has(let name):
            // Tile properties are never null (StyleValue(VectorTile.Value)): present means not null.
            return input == .property(name) ? .constant(.bool(value != .null)) : self
        case .geometryType:
            return input == .geometryType ? .constant(value) : self
        case .constant, .zoom, .featureID, .variable:
            return self
        case .binding(let bindings, let body):
            return .binding(bindings.map { ($0.name, fixed($0.value)) }, fixed(body))
        case .compare(let comparison, let left, let right):
            return .compare(comparison, fixed(left), fixed(right))
        case .all(let operands):
            return .all(operands.map(fixed))
        case .any(let operands):
            return .any(operands.map(fixed))
        case .not(let operand):
            return .not(fixed(operand))
        case .oneOf(let operand, let values):
            return .oneOf(fixed(operand), values)
        case .contains(let needle, let haystack):
            return .contains(needle: fixed(needle), haystack: fixed(haystack))
        case .match(let operand, let labels, let outputs, let fallback):
            return .match(fixed(operand), labels: labels, outputs: outputs.map(fixed), fallback: fixed(fallback))
        case .cases(let branches, let fallback):
            return .cases(branches.map { (fixed($0.condition), fixed($0.output)) }, fallback: fixed(fallback))
        case .coalesce(let operands):
            return .coalesce(operands.map(fixed))
        case .step(let operand, let base, let stops):
            return .step(fixed(operand), base: fixed(base), stops: stops.map { ($0.input, fixed($0.output)) })
        case .interpolate(let kind, let operand, let stops):
            return .interpolate(kind, fixed(operand), stops: stops.map { ($0.input, fixed($0.output)) })
        case .convert(let conversion, let operands):
            return .convert(conversion, operands.map(fixed))
        case .concat(let operands):
            return .concat(operands.map(fixed))
        case .changeCase(let upper, let operand):
            return .changeCase(upper: upper, fixed(operand))
        case .math(let op, let operands):
            return .math(op, operands.map(fixed))
        case .length(let operand):
            return .length(fixed(operand))
        case .at(let index, let array):
            return .at(fixed(index), fixed(array))
        case .rgba(let operands):
            return .rgba(operands.map(fixed))
        }
    }
}
