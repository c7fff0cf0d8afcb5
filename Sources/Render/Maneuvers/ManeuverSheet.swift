// A contact sheet of every maneuver icon with its name, to look at all 66 at once.

import Navigation
import Raster

/// Draws all maneuver icons on one image.
package enum ManeuverSheet {
    /// Every maneuver's icon (`size`, `scale`, `lighting`) in a grid of `columns`, each with
    /// its name below, on a background that suits the lighting.
    package static func image(
        size: ManeuverIconSize = .square96, scale: Int = 1, lighting: LightingMode = .normal,
        columns: Int = 8
    ) throws(RasterError) -> Image {
        let maneuvers = Maneuver.allCases
        let columns = max(1, columns)
        let rows = (maneuvers.count + columns - 1) / columns
        let icon = Double(size.points * min(max(scale, 1), 3))
        let label = 10.0 * Double(min(max(scale, 1), 3))
        let cellWidth = max(icon + 24, 205 * Double(min(max(scale, 1), 3)))
        let cellHeight = icon + label * 2.5
        let background = lighting == .normal ? Color.white : Color(red: 0x20, green: 0x21, blue: 0x24)
        var canvas = Canvas(width: Int(cellWidth) * columns, height: Int(cellHeight) * rows, background: background)
        let font = try Font.dejaVuSans()
        for (index, maneuver) in maneuvers.enumerated() {
            let x = Double(index % columns) * cellWidth
            let y = Double(index / columns) * cellHeight
            canvas.fill(
                .rectangle(x: x + (cellWidth - icon) / 2, y: y + 4, width: icon, height: icon),
                color: ManeuverIcon.color(lighting).withOpacity(0.06))
            ManeuverIcon.draw(
                ManeuverGlyphs.glyph(maneuver), on: &canvas, at: Point(x: x + (cellWidth - icon) / 2, y: y + 4),
                side: icon, lighting: lighting)
            let text = try TextLayout(text: maneuver.rawValue, font: font, size: label)
            try canvas.draw(
                text, at: Point(x: x + (cellWidth - text.width) / 2, y: y + icon + 4 + label * 1.4),
                color: ManeuverIcon.color(lighting))
        }
        return canvas.image
    }
}
