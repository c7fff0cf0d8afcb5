// Reading one layer of a style document: its type, source, zoom range, filter and the
// properties its type draws. What the layer asks for outside the subset is noted for the
// style's one warning; a value of the wrong type in a property that is drawn is an error
// that names the layer and the property.

import JSON
import Raster

/// Reads one style layer's JSON object.
struct LayerReader {
    let style: String
    let id: String
    let object: [String: JSONValue]
    private let paint: [String: JSONValue]
    private let layout: [String: JSONValue]
    private var consumed = Set<String>()

    /// Properties that change nothing this renderer draws (anti-aliasing is always on,
    /// labels are always kept upright and placed once per name), read without a warning.
    private static let harmless: Set<String> = [
        "fill-antialias", "fill-sort-key", "line-sort-key", "line-round-limit", "symbol-avoid-edges", "symbol-spacing",
        "symbol-z-order", "text-pitch-alignment", "text-rotation-alignment", "text-keep-upright", "text-optional",
        "text-justify", "text-halo-blur", "visibility", "raster-fade-duration", "raster-resampling",
    ]

    init(style: String, id: String, object: [String: JSONValue]) {
        self.style = style
        self.id = id
        self.object = object
        paint = object["paint"]?.object ?? [:]
        layout = object["layout"]?.object ?? [:]
    }

    private func error(_ message: String) -> BasemapError {
        BasemapError(code: .invalidStyle, message: "style \(style), layer \"\(id)\": \(message)")
    }

    /// The layer, or nil when it is hidden or outside the subset (then noted in `skipped`).
    mutating func read(sourceTypes: [String: String], skipped: inout SkippedParts) throws(BasemapError) -> StyleLayer? {
        guard let typeName = object["type"]?.string else { throw error("no \"type\" string") }
        guard let kind = StyleLayer.Kind(rawValue: typeName) else {
            let known = ["fill-extrusion", "circle", "heatmap", "hillshade", "color-relief", "sky", "location-indicator"]
            guard known.contains(typeName) else { throw error("unknown layer type \"\(typeName)\"") }
            skipped.note("\(typeName) layers", id)
            return nil
        }
        if layout["visibility"]?.string == "none" { return nil }
        var sourceLayer: String?
        if kind != .background {
            guard let source = object["source"]?.string else { throw error("no \"source\"") }
            guard let sourceType = sourceTypes[source] else { throw error("source \"\(source)\" is not among the style's sources") }
            switch (kind, sourceType) {
            case (.raster, "raster"):
                break
            case (.fill, "vector"), (.line, "vector"), (.symbol, "vector"):
                guard let name = object["source-layer"]?.string else { throw error("no \"source-layer\" for a vector source") }
                sourceLayer = name
            default:
                skipped.note("\(sourceType) sources", id)
                return nil
            }
        }
        let minZoom = try zoom("minzoom") ?? -Double.infinity
        let maxZoom = try zoom("maxzoom") ?? Double.infinity
        let filter = try object["filter"].map { (json) throws(BasemapError) in
            try ExpressionParser(place: "style \(style), layer \"\(id)\", filter").parseFilter(json)
        }
        let properties: StyleLayer.Properties
        switch kind {
        case .background:
            properties = .background(
                BackgroundProperties(
                    color: try property(.paint, "background-color", .color, default: .black, PropertyConversion.color),
                    opacity: try property(.paint, "background-opacity", .number, default: 1, PropertyConversion.number)))
        case .fill:
            properties = .fill(
                FillProperties(
                    color: try property(.paint, "fill-color", .color, default: .black, PropertyConversion.color),
                    opacity: try property(.paint, "fill-opacity", .number, default: 1, PropertyConversion.number),
                    outlineColor: try optionalProperty(.paint, "fill-outline-color", .color, default: .black, PropertyConversion.color)))
        case .line:
            properties = .line(try lineProperties())
        case .symbol:
            guard layout["text-field"] != nil else {
                if layout["icon-image"] != nil { skipped.note("icons", id) }
                return nil
            }
            properties = .symbol(try symbolProperties())
        case .raster:
            properties = .raster(
                RasterProperties(
                    opacity: try property(.paint, "raster-opacity", .number, default: 1, PropertyConversion.number)))
        }
        for (section, values) in [("paint", paint), ("layout", layout)] {
            for key in values.keys.sorted() where !consumed.contains("\(section).\(key)") {
                if key.hasSuffix("-transition") || Self.harmless.contains(key) { continue }
                skipped.note(key.hasPrefix("icon-") ? "icons" : key, id)
            }
        }
        return StyleLayer(
            id: id, kind: kind, sourceLayer: sourceLayer, minZoom: minZoom, maxZoom: maxZoom, filter: filter,
            properties: properties)
    }

    private func zoom(_ key: String) throws(BasemapError) -> Double? {
        guard let json = object[key] else { return nil }
        guard let value = json.number, value.isFinite else { throw error("\"\(key)\" must be a number, got \(json.compact)") }
        return value
    }

    private mutating func lineProperties() throws(BasemapError) -> LineProperties {
        LineProperties(
            color: try property(.paint, "line-color", .color, default: .black, PropertyConversion.color),
            width: try property(.paint, "line-width", .number, default: 1, PropertyConversion.number),
            opacity: try property(.paint, "line-opacity", .number, default: 1, PropertyConversion.number),
            dashArray: try optionalProperty(.paint, "line-dasharray", .numberArray, default: [], PropertyConversion.numbers),
            cap: try property(
                .layout, "line-cap", .enumeration(["butt", "round", "square"]), default: "butt",
                PropertyConversion.enumeration(["butt", "round", "square"])),
            join: try property(
                .layout, "line-join", .enumeration(["bevel", "round", "miter"]), default: "miter",
                PropertyConversion.enumeration(["bevel", "round", "miter"])),
            miterLimit: try property(.layout, "line-miter-limit", .number, default: 2, PropertyConversion.number),
            offset: try optionalProperty(.paint, "line-offset", .number, default: 0, PropertyConversion.number),
            gapWidth: try optionalProperty(.paint, "line-gap-width", .number, default: 0, PropertyConversion.number))
    }

    private mutating func symbolProperties() throws(BasemapError) -> SymbolProperties {
        let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]
        return SymbolProperties(
            textField: try property(.layout, "text-field", .formatted, default: "", PropertyConversion.text),
            size: try property(.layout, "text-size", .number, default: 16, PropertyConversion.number),
            font: try property(.layout, "text-font", .stringArray, default: ["Open Sans Regular"], PropertyConversion.strings),
            maxWidth: try property(.layout, "text-max-width", .number, default: 10, PropertyConversion.number),
            lineHeight: try property(.layout, "text-line-height", .number, default: 1.2, PropertyConversion.number),
            placement: try property(
                .layout, "symbol-placement", .enumeration(["point", "line", "line-center"]), default: "point",
                PropertyConversion.enumeration(["point", "line", "line-center"])),
            anchor: try property(
                .layout, "text-anchor", .enumeration(anchors), default: "center",
                PropertyConversion.enumeration(anchors)),
            offset: try property(.layout, "text-offset", .numberArray, default: [0, 0], PropertyConversion.numbers),
            transform: try property(
                .layout, "text-transform", .enumeration(["none", "uppercase", "lowercase"]), default: "none",
                PropertyConversion.enumeration(["none", "uppercase", "lowercase"])),
            letterSpacing: try property(.layout, "text-letter-spacing", .number, default: 0, PropertyConversion.number),
            maxAngle: try property(.layout, "text-max-angle", .number, default: 45, PropertyConversion.number),
            padding: try property(.layout, "text-padding", .number, default: 2, PropertyConversion.number),
            sortKey: try optionalProperty(.layout, "symbol-sort-key", .number, default: 0, PropertyConversion.number),
            allowOverlap: try property(.layout, "text-allow-overlap", .boolean, default: false, PropertyConversion.boolean),
            ignorePlacement: try property(.layout, "text-ignore-placement", .boolean, default: false, PropertyConversion.boolean),
            color: try property(.paint, "text-color", .color, default: .black, PropertyConversion.color),
            opacity: try property(.paint, "text-opacity", .number, default: 1, PropertyConversion.number),
            haloColor: try property(.paint, "text-halo-color", .color, default: .transparent, PropertyConversion.color),
            haloWidth: try property(.paint, "text-halo-width", .number, default: 0, PropertyConversion.number))
    }

    enum Section: String {
        case paint, layout
    }

    /// A property, or nil when the layer does not set it.
    private mutating func optionalProperty<Value: Sendable>(
        _ section: Section, _ name: String, _ kind: PropertyKind, default value: Value,
        _ convert: @escaping @Sendable (StyleValue) -> Value?
    ) throws(BasemapError) -> StyleProperty<Value>? {
        guard (section == .paint ? paint : layout)[name] != nil else { return nil }
        return try property(section, name, kind, default: value, convert)
    }

    /// A property read strictly: constants must convert; expressions fall back to `value`.
    private mutating func property<Value: Sendable>(
        _ section: Section, _ name: String, _ kind: PropertyKind, default value: Value,
        _ convert: @escaping @Sendable (StyleValue) -> Value?
    ) throws(BasemapError) -> StyleProperty<Value> {
        consumed.insert("\(section.rawValue).\(name)")
        guard let json = (section == .paint ? paint : layout)[name] else {
            return StyleProperty(constant: value, convert: convert)
        }
        let parser = ExpressionParser(place: "style \(style), layer \"\(id)\", \(section.rawValue).\(name)")
        var expression = try parser.propertyExpression(json, kind: kind)
        if case .formatted = kind, case .constant(.string(let text)) = expression {
            expression = Self.tokens(text)
        }
        if case .constant(let constant) = expression {
            guard let converted = convert(constant) else {
                throw parser.error("expected \(kind.name), got \(json.compact)")
            }
            return StyleProperty(constant: converted, convert: convert)
        }
        return StyleProperty(expression: expression, default: value, convert: convert)
    }

    /// A `text-field` string with {property} tokens as an expression (missing → "").
    static func tokens(_ text: String) -> StyleExpression {
        guard text.contains("{") else { return .constant(.string(text)) }
        var parts: [StyleExpression] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            literal += rest[..<open]
            if !literal.isEmpty { parts.append(.constant(.string(literal))) }
            literal = ""
            parts.append(.coalesce([.get(String(rest[rest.index(after: open)..<close])), .constant(.string(""))]))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.constant(.string(literal))) }
        return .concat(parts)
    }
}
