import Raster

/// How one kind of marker is drawn (the Consumer SDK's marker style options): its icon, the
/// point of the icon that sits on the location, stacking, rotation and visibility.
public struct MarkerStyleOptions: Hashable, Sendable {
    /// The icon.
    package var icon: MarkerIcon
    /// The point of the icon placed on the marker's location, as fractions of its width and
    /// height from the top-left corner ([0.5, 1] is the bottom centre, a pin's tip).
    package var groundAnchor: GroundAnchor
    /// Markers with a higher zIndex are drawn over those with a lower one.
    package var zIndex: Int
    /// A flat marker lies on the map: it turns with the vehicle's heading and the camera's
    /// bearing; otherwise it always stands upright.
    package var isFlat: Bool
    /// Whether the marker is drawn.
    package var isVisible: Bool
    /// The ETA badge (drawn on the pickup marker only).
    package var etaLabel: ETALabelStyle

    /// Options from their parts.
    package init(icon: MarkerIcon, groundAnchor: GroundAnchor, zIndex: Int, isFlat: Bool, isVisible: Bool, etaLabel: ETALabelStyle) {
        self.icon = icon
        self.groundAnchor = groundAnchor
        self.zIndex = zIndex
        self.isFlat = isFlat
        self.isVisible = isVisible
        self.etaLabel = etaLabel
    }
}

/// A point of an icon as fractions of its width (x) and height (y), each 0–1.
package struct GroundAnchor: Hashable, Sendable {
    /// 0 is the left edge, 1 the right.
    package var x: Double
    /// 0 is the top edge, 1 the bottom.
    package var y: Double

    /// An anchor; values are clamped to 0–1.
    package init(x: Double, y: Double) {
        self.x = min(max(x, 0), 1)
        self.y = min(max(y, 0), 1)
    }
}
