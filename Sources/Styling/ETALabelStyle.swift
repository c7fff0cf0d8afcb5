import Raster

/// How the pickup marker's ETA badge looks ("4 min", "Now"): a pill of `backgroundColor`
/// with an `outlineColor` rim, bold `textColor` text at `fontSize` pixels (scale 1).
package struct ETALabelStyle: Hashable, Sendable {
    /// Whether the badge is drawn at all.
    package var isVisible: Bool
    /// Text colour.
    package var textColor: Color
    /// Fill of the pill.
    package var backgroundColor: Color
    /// Rim of the pill (transparent for none); keeps a dark badge readable on a dark map.
    package var outlineColor: Color
    /// Text size in pixels at scale 1.
    package var fontSize: Double

    /// A label style from its parts.
    package init(isVisible: Bool, textColor: Color, backgroundColor: Color, outlineColor: Color, fontSize: Double) {
        self.isVisible = isVisible
        self.textColor = textColor
        self.backgroundColor = backgroundColor
        self.outlineColor = outlineColor
        self.fontSize = fontSize
    }
}
