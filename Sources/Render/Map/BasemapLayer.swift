// The basemap as Render draws it (DESIGN §7, §13): one tile archive, opened once by the
// server or `tripshare render`, drawn with the basemap style a style sheet names for the
// picture's lighting (the built-in OpenMapTiles day and night styles), or with one style the
// operator chose for every picture (a MapLibre style file, for another schema). Contract: every
// style draws from one cache of decoded tiles, so day and night together stay within the one
// memory bound; each style's "not drawn" warning is reported once, when the layer is made.

import Basemap
import Navigation
import Styling

/// A tile archive and the styles previews and navigation screens draw it with.
public final class BasemapLayer: Sendable {
    /// The tiles.
    public let source: any TileSource
    /// The operator's style for every picture; nil when style sheets choose.
    package let fixedStyle: MapStyle?
    /// Basemaps by style name (the built-in names, or the fixed style's name alone).
    private let basemaps: [String: Basemap]
    /// The basemap drawn when a name is not known (never, for checked style sheets).
    private let fallback: Basemap

    /// A layer over an opened archive. With `style`, every picture uses it; without, the
    /// built-in basemap styles are loaded and a style sheet's `basemapStyle` or
    /// `nightBasemapStyle` picks one. `cacheBytes` bounds the decoded tiles of all styles
    /// together; `report` receives each style's warning once and each unusable tile once.
    /// Throws when a built-in style cannot be read (a damaged installation).
    public init(
        source: any TileSource, style: MapStyle? = nil, cacheBytes: Int = Basemap.defaultCacheBytes,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(BasemapError) {
        self.source = source
        fixedStyle = style
        if let style {
            let basemap = Basemap(source: source, style: style, cacheBytes: cacheBytes, report: report)
            basemaps = [style.name: basemap]
            fallback = basemap
            return
        }
        // The day style first: it is what a name no style sheet can give falls back to.
        let day = Basemap(
            source: source, style: try MapStyle.builtin(named: Self.fallbackStyle), cacheBytes: cacheBytes,
            report: report)
        var loaded = [Self.fallbackStyle: day]
        for name in MapStyleOptions.basemapStyleNames where loaded[name] == nil {
            loaded[name] = day.restyled(try MapStyle.builtin(named: name))
        }
        basemaps = loaded
        fallback = day
    }

    /// The built-in style drawn for a name no checked style sheet gives.
    static let fallbackStyle = "openmaptiles-day"

    /// Opens `path` (PMTiles or MBTiles) and, when `styleNameOrPath` is given, that style (a
    /// built-in name or a MapLibre style file). Errors name the file and what is wrong.
    public static func open(
        path: String, style styleNameOrPath: String? = nil, cacheBytes: Int = Basemap.defaultCacheBytes,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(BasemapError) -> BasemapLayer {
        let source = try TileArchive.open(path: path)
        let style = try styleNameOrPath.map { (name) throws(BasemapError) in try MapStyle.named(name) }
        return try BasemapLayer(source: source, style: style, cacheBytes: cacheBytes, report: report)
    }

    /// The basemap for a style sheet's map options in a lighting.
    public func basemap(for map: MapStyleOptions, lighting: LightingMode) -> Basemap {
        if fixedStyle != nil { return fallback }
        return basemaps[map.basemapStyle(night: lighting == .lowLight)] ?? fallback
    }

    /// The basemap drawn with the style called `name` (a built-in name, or the operator's
    /// style's), nil for a name the layer does not draw with.
    public func basemap(named name: String) -> Basemap? { basemaps[name] }

    /// The names `basemap(named:)` knows, sorted.
    package var styleNames: [String] { basemaps.keys.sorted() }

    /// The layer as the navigation screen's map underlay, for a style sheet.
    public func underlay(for style: StyleSheet) -> BasemapUnderlay {
        BasemapUnderlay(layer: self, map: style.map)
    }

    /// What the layer draws from, for logs: the archive and the style(s).
    package var summary: String {
        let metadata = source.metadata
        let styles = fixedStyle.map { "style \($0.name)" } ?? "the style sheets' built-in styles"
        return "\(metadata.format) tiles, zooms \(metadata.minZoom)–\(metadata.maxZoom), drawn with \(styles)"
    }
}
