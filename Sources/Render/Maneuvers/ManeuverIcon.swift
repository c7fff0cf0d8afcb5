// Maneuver icons as the Navigation SDK sizes them (GMSNavigationManeuverImageSize square48 /
// square96, in points, times the screen scale), drawn from the vector glyphs on a
// transparent background: dark for `normal` lighting (light screens), light for `lowLight`
// (night screens); roads not taken and roundabout rings in the same colour, faded.

import Navigation
import Raster

/// The two maneuver icon sizes of the Navigation SDK, in points.
package enum ManeuverIconSize: String, CaseIterable, Sendable {
    /// 48 × 48 points.
    case square48
    /// 96 × 96 points.
    case square96

    /// The side in points.
    package var points: Int { self == .square48 ? 48 : 96 }
}

/// Draws maneuver icons.
package enum ManeuverIcon {
    /// The screen scales icons are drawn at.
    package static let scales = 1...3

    /// The icon colour for a lighting mode.
    package static func color(_ lighting: LightingMode) -> Color {
        lighting == .normal ? Color(red: 0x20, green: 0x21, blue: 0x24) : Color(red: 0xE8, green: 0xEA, blue: 0xED)
    }

    /// The icon of `maneuver`, `size.points × scale` pixels square (`scale` clamped to 1–3).
    package static func image(_ maneuver: Maneuver, size: ManeuverIconSize, scale: Int = 1, lighting: LightingMode = .normal) -> Image {
        let pixels = Double(size.points * min(max(scale, scales.lowerBound), scales.upperBound))
        var canvas = Canvas(width: Int(pixels), height: Int(pixels))
        draw(ManeuverGlyphs.glyph(maneuver), on: &canvas, at: Point(x: 0, y: 0), side: pixels, lighting: lighting)
        return canvas.image
    }

    /// The icon as PNG bytes.
    package static func png(
        _ maneuver: Maneuver, size: ManeuverIconSize, scale: Int = 1,
        lighting: LightingMode = .normal
    ) throws(RasterError) -> [UInt8] {
        try PNGCodec.encode(image(maneuver, size: size, scale: scale, lighting: lighting))
    }

    /// Draws a glyph into the square of `side` pixels at `origin`.
    static func draw(_ glyph: Glyph, on canvas: inout Canvas, at origin: Point, side: Double, lighting: LightingMode) {
        let color = color(lighting)
        let unit = side / Glyph.side
        let transform = Transform.scale(x: unit, y: unit).translatedBy(x: origin.x, y: origin.y)
        glyph.draw(on: &canvas, transform: transform, primary: color, secondary: color.withOpacity(0.35))
    }
}
