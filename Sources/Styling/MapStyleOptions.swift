import Raster

/// The map under the markers and lines: its background by day and at night (the preview's
/// `lighting=lowLight`), and the basemap style drawn over that background when the server has
/// a basemap (DESIGN §13).
public struct MapStyleOptions: Hashable, Sendable {
    /// Background in normal lighting.
    public var background: Color
    /// Background in low light.
    package var nightBackground: Color
    /// The built-in basemap style drawn in normal lighting.
    package var basemapStyle: String
    /// The built-in basemap style drawn in low light.
    package var nightBasemapStyle: String
    /// Whether the rider's live page shows the driver's next turn (riders' apps usually do not).
    package var showsNextTurn: Bool

    /// The basemap styles a style sheet may name: the built-in OpenMapTiles styles of Basemap
    /// (Render checks that the two lists agree).
    package static let basemapStyleNames = ["openmaptiles-day", "openmaptiles-night"]

    /// Options from their parts; the basemap styles default to the built-in day and night ones,
    /// and the rider's page shows no turns by default.
    package init(
        background: Color, nightBackground: Color, basemapStyle: String = "openmaptiles-day",
        nightBasemapStyle: String = "openmaptiles-night", showsNextTurn: Bool = false
    ) {
        self.background = background
        self.nightBackground = nightBackground
        self.basemapStyle = basemapStyle
        self.nightBasemapStyle = nightBasemapStyle
        self.showsNextTurn = showsNextTurn
    }

    /// The basemap style for a lighting (`night` for low light).
    package func basemapStyle(night: Bool) -> String { night ? nightBasemapStyle : basemapStyle }
}
