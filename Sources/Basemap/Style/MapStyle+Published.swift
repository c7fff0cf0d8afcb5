// The style as a MapLibre client loads it (`/styles/{style}/style.json`): the document the
// basemap draws with, its vector sources pointed at the server's own tiles, so MapLibre GL JS
// and the MapLibre mobile SDKs draw the same map from the same data. Contract: every source
// of type "vector" becomes `{"type": "vector", "url": tileJSON}` (the style's binding of
// vector sources to the configured archive, made explicit); other sources, the layers and
// everything else stay as written; `glyphs`, when given, replaces the style's own.

import Foundation

extension MapStyle {
    /// The style document with its vector sources reading `tileJSON` (a TileJSON URL) and, when
    /// given, `glyphs` as its glyph URL template; throws when the document is not a JSON object.
    public func published(tileJSON: String, glyphs: String? = nil) throws(BasemapError) -> Data {
        guard var root = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] else {
            throw BasemapError(code: .invalidStyle, message: "style \(name): the document must be a JSON object")
        }
        var sources = root["sources"] as? [String: Any] ?? [:]
        for (id, source) in sources where (source as? [String: Any])?["type"] as? String == "vector" {
            sources[id] = ["type": "vector", "url": tileJSON]
        }
        root["sources"] = sources
        if let glyphs { root["glyphs"] = glyphs }
        do {
            return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw BasemapError(code: .invalidStyle, message: "style \(name): cannot be written as JSON (\(error))")
        }
    }
}

extension MapStyle {
    /// The tile layers the style draws from, in the order its layers first name them.
    public var sourceLayers: [String] {
        var seen = Set<String>()
        return layers.compactMap(\.sourceLayer).filter { seen.insert($0).inserted }
    }
}
