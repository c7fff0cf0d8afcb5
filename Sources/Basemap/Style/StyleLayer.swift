// A style layer as drawing needs it: its type, where its features come from, when it shows,
// its filter, and typed properties. Defaults are MapLibre's, so a published style draws as
// its author expects.

import Raster

/// One layer of a map style.
struct StyleLayer: Sendable {
    /// The layer types drawn here.
    enum Kind: String, Sendable {
        case background, fill, line, symbol, raster
    }

    let id: String
    let kind: Kind
    /// The vector tile layer it draws (vector layers only).
    let sourceLayer: String?
    /// Shown for minZoom ≤ zoom < maxZoom (style zoom).
    let minZoom: Double
    let maxZoom: Double
    let filter: StyleExpression?
    let properties: Properties

    /// Each type's properties.
    enum Properties: Sendable {
        case background(BackgroundProperties)
        case fill(FillProperties)
        case line(LineProperties)
        case symbol(SymbolProperties)
        case raster(RasterProperties)
    }

    /// True when the layer shows at a style zoom.
    func isVisible(atZoom zoom: Double) -> Bool {
        zoom >= minZoom && zoom < maxZoom
    }
}

struct BackgroundProperties: Sendable {
    let color: StyleProperty<Color>
    let opacity: StyleProperty<Double>
}

struct FillProperties: Sendable {
    let color: StyleProperty<Color>
    let opacity: StyleProperty<Double>
    /// Drawn as a one-pixel outline when given.
    let outlineColor: StyleProperty<Color>?
}

struct LineProperties: Sendable {
    let color: StyleProperty<Color>
    let width: StyleProperty<Double>
    let opacity: StyleProperty<Double>
    /// Dash and gap lengths in line widths.
    let dashArray: StyleProperty<[Double]>?
    let cap: StyleProperty<String>
    let join: StyleProperty<String>
    let miterLimit: StyleProperty<Double>
    /// Offset to the right of the line's direction, in pixels.
    let offset: StyleProperty<Double>?
    /// Draws two lines this far apart (casing), in pixels.
    let gapWidth: StyleProperty<Double>?
}

struct SymbolProperties: Sendable {
    let textField: StyleProperty<String>
    let size: StyleProperty<Double>
    let font: StyleProperty<[String]>
    /// Wrap width of point labels, in ems.
    let maxWidth: StyleProperty<Double>
    /// Line height of wrapped labels, in ems.
    let lineHeight: StyleProperty<Double>
    /// "point", "line" or "line-center".
    let placement: StyleProperty<String>
    let anchor: StyleProperty<String>
    /// Offset of point labels, in ems.
    let offset: StyleProperty<[Double]>
    /// "none", "uppercase" or "lowercase".
    let transform: StyleProperty<String>
    /// Extra spacing between letters, in ems.
    let letterSpacing: StyleProperty<Double>
    /// The largest bend between neighbouring glyphs along a line, in degrees.
    let maxAngle: StyleProperty<Double>
    /// Space kept free around the label, in pixels.
    let padding: StyleProperty<Double>
    let sortKey: StyleProperty<Double>?
    let allowOverlap: StyleProperty<Bool>
    let ignorePlacement: StyleProperty<Bool>
    let color: StyleProperty<Color>
    let opacity: StyleProperty<Double>
    let haloColor: StyleProperty<Color>
    let haloWidth: StyleProperty<Double>
}

struct RasterProperties: Sendable {
    let opacity: StyleProperty<Double>
}
