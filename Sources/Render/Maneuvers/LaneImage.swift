// The lanes at a step's maneuver, as a driver's display shows them: one cell per lane, left
// to right, on a dark rounded panel, each lane's directions drawn as arrows; the directions
// that follow the route in white, the others in grey.

import Navigation
import Raster

/// Draws lane guidance images.
package enum LaneImage {
    /// Points per lane cell (square).
    package static let cellPoints = 48
    /// Most lanes drawn.
    package static let maximumLanes = 16

    /// The image of `lanes` (at most ``maximumLanes``), `48 × lanes` by 48 points times
    /// `scale` (clamped to 1–3); nil when there are no lanes.
    package static func image(_ lanes: [Lane], scale: Int = 1, lighting: LightingMode = .normal) -> Image? {
        let shown = Array(lanes.prefix(maximumLanes))
        guard !shown.isEmpty else { return nil }
        let s = Double(min(max(scale, ManeuverIcon.scales.lowerBound), ManeuverIcon.scales.upperBound))
        let cell = Double(cellPoints) * s
        var canvas = Canvas(width: Int(cell) * shown.count, height: Int(cell))
        let panel = lighting == .normal ? Color(red: 0x3C, green: 0x40, blue: 0x43) : Color(red: 0x17, green: 0x18, blue: 0x1A)
        let other = lighting == .normal ? Color(red: 0x9A, green: 0xA0, blue: 0xA6) : Color(red: 0x70, green: 0x75, blue: 0x7A)
        canvas.fill(.roundedRectangle(x: 0, y: 0, width: Double(canvas.width), height: cell, radius: 6 * s), color: panel)
        for (index, lane) in shown.enumerated() {
            let x = Double(index) * cell
            if index > 0 {
                canvas.stroke(
                    .polyline([Point(x: x, y: cell * 0.15), Point(x: x, y: cell * 0.85)]),
                    style: StrokeStyle(width: s, cap: .butt), color: other.withOpacity(0.6))
            }
            // Inset so arrows of neighbouring lanes do not touch.
            let inset = cell * 0.1
            let unit = (cell - 2 * inset) / Glyph.side
            let transform = Transform.scale(x: unit, y: unit).translatedBy(x: x + inset, y: inset)
            let directions = lane.laneDirections.sorted { !$0.recommended && $1.recommended }
            for direction in directions {
                let color = direction.recommended ? Color.white : other
                ManeuverGlyphs.glyph(direction.laneShape).primaryParts()
                    .draw(on: &canvas, transform: transform, primary: color, secondary: color)
            }
        }
        return canvas.image
    }
}
