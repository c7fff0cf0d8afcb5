// A style layer's filter resolved against one layer of a tile, for choosing its features.
// Filters mostly test one property against a few values (["match", ["get", "class"], …]) or
// the geometry type, under `all`, `any` and `!`: each such part is evaluated once per value
// the property takes in the layer (a transportation layer's hundreds of roads share a dozen
// classes) or once per geometry type, and then read by the feature's value index, instead of
// looking the property up by name and comparing strings for every feature. Parts that read
// more than one input are evaluated per feature, as before. Contract: `passes(index)` equals
// `filter.evaluate(EvaluationContext(zoom: zoom, feature: FeatureView(layer: layer, index: index))) == .bool(true)`
// for every feature (a filter's `all`, `any` and `!` treat anything but `true` as false, as
// the resolved form does).

struct LayerFilter {
    private indirect enum Node {
        case constant(Bool)
        case all([Node])
        case any([Node])
        case not(Node)
        /// A part that reads one property: `tests[index]`.
        case property(Int)
        /// A part that reads the geometry type: its result by the type's raw value.
        case geometryType([Bool])
        /// A part that reads more than one input: evaluated feature by feature.
        case perFeature(StyleExpression)
    }

    /// A part of the filter that reads one property, and its results by value index, found
    /// when a feature with that value is first met.
    private struct PropertyTest {
        let name: String
        let expression: StyleExpression
        /// The property's key index in the layer; nil when no feature has the property.
        let key: UInt32?
        /// The result for a feature without the property.
        let absent: Bool
        /// By index into the layer's values: -1 not evaluated yet, else 0 or 1.
        var results: [Int8]
    }

    private let layer: PreparedLayer
    private let zoom: Double
    private var tests: [PropertyTest] = []
    private var root = Node.constant(false)

    init(_ filter: StyleExpression, layer: PreparedLayer, zoom: Double) {
        self.layer = layer
        self.zoom = zoom
        root = resolve(filter)
    }

    private mutating func resolve(_ expression: StyleExpression) -> Node {
        switch expression {
        case .all(let operands):
            return .all(operands.map { resolve($0) })
        case .any(let operands):
            return .any(operands.map { resolve($0) })
        case .not(let operand):
            return .not(resolve(operand))
        default:
            let context = EvaluationContext(zoom: zoom)
            switch expression.featureReads {
            case .nothing:
                return .constant(expression.evaluate(context) == .bool(true))
            case .several:
                return .perFeature(expression)
            case .one(.geometryType):
                let types: [VectorTile.GeometryType] = [.unknown, .point, .lineString, .polygon]
                return .geometryType(
                    types.map { expression.fixing(.geometryType, to: .string($0.styleName)).evaluate(context) == .bool(true) })
            case .one(.property(let name)):
                let key = layer.keyIndex[name]
                tests.append(
                    PropertyTest(
                        name: name, expression: expression, key: key,
                        absent: expression.fixing(.property(name), to: .null).evaluate(context) == .bool(true),
                        results: Array(repeating: -1, count: key == nil ? 0 : layer.values.count)))
                return .property(tests.count - 1)
            }
        }
    }

    /// True when feature `index` of the layer passes the filter.
    mutating func passes(_ index: Int) -> Bool {
        passes(root, index)
    }

    private mutating func passes(_ node: Node, _ index: Int) -> Bool {
        switch node {
        case .constant(let result):
            return result
        case .all(let operands):
            for operand in operands where !passes(operand, index) { return false }
            return true
        case .any(let operands):
            for operand in operands where passes(operand, index) { return true }
            return false
        case .not(let operand):
            return !passes(operand, index)
        case .geometryType(let results):
            return results[layer.features[index].type.rawValue]
        case .property(let test):
            guard let key = tests[test].key, let value = layer.valueIndex(ofKey: key, feature: index) else { return tests[test].absent }
            let known = tests[test].results[value]
            if known >= 0 { return known == 1 }
            let result =
                tests[test].expression.fixing(.property(tests[test].name), to: layer.values[value])
                .evaluate(EvaluationContext(zoom: zoom)) == .bool(true)
            tests[test].results[value] = result ? 1 : 0
            return result
        case .perFeature(let expression):
            return expression.evaluate(EvaluationContext(zoom: zoom, feature: FeatureView(layer: layer, index: index))) == .bool(true)
        }
    }
}
