// The style as a MapLibre client loads it (`/styles/{style}/style.json`): the document the
// basemap draws with, its vector sources pointed at the server's own tiles, so MapLibre GL JS
// and the MapLibre mobile SDKs draw the same map from the same data. Contract: every source
// of type "vector" becomes `{"type": "vector", "url": tileJSON}` (the style's binding of
// vector sources to the configured archive, made explicit); other sources, the layers and
// everything else stay as written, but for one rewrite: MapLibre accepts one zoom curve per
// expression, so a sum of zoom curves (a casing's width plus its border, which our renderer
// evaluates as written) becomes one curve through the union of their stops, summed there
// (the same value at every stop, within a few hundredths of a pixel between them); `glyphs`,
// when given, replaces the style's own.

import Foundation

extension MapStyle {
    /// The style document with its vector sources reading `tileJSON` (a TileJSON URL) and, when
    /// given, `glyphs` as its glyph URL template; throws when the document is not a JSON object.
    package func published(tileJSON: String, glyphs: String? = nil) throws(BasemapError) -> Data {
        guard var root = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] else {
            throw BasemapError(code: .invalidStyle, message: "style \(name): the document must be a JSON object")
        }
        var sources = root["sources"] as? [String: Any] ?? [:]
        for (id, source) in sources where (source as? [String: Any])?["type"] as? String == "vector" {
            sources[id] = ["type": "vector", "url": tileJSON]
        }
        root["sources"] = sources
        if let layers = root["layers"] as? [Any] { root["layers"] = layers.map(Self.singleZoomCurves) }
        if let glyphs { root["glyphs"] = glyphs }
        do {
            return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw BasemapError(code: .invalidStyle, message: "style \(name): cannot be written as JSON (\(error))")
        }
    }
}

extension MapStyle {
    /// `value` with every sum of zoom curves in it made one curve (see the file's contract).
    static func singleZoomCurves(_ value: Any) -> Any {
        if let object = value as? [String: Any] { return object.mapValues(singleZoomCurves) }
        guard let array = value as? [Any] else { return value }
        let parts = array.map(singleZoomCurves)
        guard parts.first as? String == "+", parts.count > 2 else { return parts }
        let terms = parts.dropFirst().map(ZoomCurve.init)
        guard terms.allSatisfy({ $0 != nil }), terms.filter({ $0?.stops.isEmpty == false }).count > 1 else { return parts }
        let curves = terms.compactMap { $0 }
        let base = curves.first { !$0.stops.isEmpty }?.base ?? 1
        guard curves.allSatisfy({ $0.stops.isEmpty || $0.base == base }) else { return parts }
        let zooms = Set(curves.flatMap { $0.stops.map(\.zoom) }).sorted()
        let interpolation: [Any] = base == 1 ? ["linear"] : ["exponential", base]
        var summed: [Any] = ["interpolate", interpolation, ["zoom"]]
        for zoom in zooms { summed += [zoom, curves.reduce(0) { $0 + $1.value(at: zoom) }] }
        return summed
    }

    /// A number, or `["interpolate", ["linear"] or ["exponential", base], ["zoom"], stops…]`
    /// (a number is a curve without stops).
    private struct ZoomCurve {
        var base = 1.0
        var constant = 0.0
        var stops: [(zoom: Double, value: Double)] = []

        init?(_ value: Any) {
            if let number = Self.number(value) {
                constant = number
                return
            }
            guard let array = value as? [Any], array.count >= 5, array.count % 2 == 1, array[0] as? String == "interpolate",
                let kind = array[1] as? [Any], (array[2] as? [Any])?.first as? String == "zoom"
            else { return nil }
            switch kind.first as? String {
            case "linear": base = 1
            case "exponential":
                guard kind.count == 2, let given = Self.number(kind[1]) else { return nil }
                base = given
            default: return nil
            }
            for index in stride(from: 3, to: array.count, by: 2) {
                guard let zoom = Self.number(array[index]), let value = Self.number(array[index + 1]) else { return nil }
                stops.append((zoom, value))
            }
        }

        /// A JSON number as JSONSerialization gives it (a Double or an Int).
        static func number(_ value: Any) -> Double? {
            return (value as? Double) ?? (value as? Int).map(Double.init)
        }

        /// The curve's value at `zoom`, as MapLibre (and our renderer) interpolate it.
        func value(at zoom: Double) -> Double {
            guard let first = stops.first, let last = stops.last else { return constant }
            if zoom <= first.zoom { return first.value }
            if zoom >= last.zoom { return last.value }
            let upper = stops.firstIndex { $0.zoom >= zoom } ?? stops.count - 1
            let (low, high) = (stops[upper - 1], stops[upper])
            let span = high.zoom - low.zoom
            let t = base == 1 ? (zoom - low.zoom) / span : (pow(base, zoom - low.zoom) - 1) / (pow(base, span) - 1)
            return low.value + t * (high.value - low.value)
        }
    }

    /// The tile layers the style draws from, in the order its layers first name them.
    package var sourceLayers: [String] {
        var seen = Set<String>()
        return layers.compactMap(\.sourceLayer).filter { seen.insert($0).inserted }
    }
}
