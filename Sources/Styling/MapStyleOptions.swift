import Raster

/// The map under the markers and lines: its background by day and at night (the preview's
/// `lighting=lowLight`).
public struct MapStyleOptions: Hashable, Sendable {
    /// Background in normal lighting.
    public var background: Color
    /// Background in low light.
    public var nightBackground: Color

    /// Options from their parts.
    public init(background: Color, nightBackground: Color) {
        self.background = background
        self.nightBackground = nightBackground
    }
}
