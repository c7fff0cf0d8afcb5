// The map underlay under the navigation screen, drawn only where it can show: the header and
// the footer are opaque across a portrait screen, so the map is drawn into the band of rows
// between them (a quarter of a phone's pixels fewer to fill, and the tiles and features wholly
// behind the panels skipped) with the screen's camera cropped to that band, then copied in.
// Everything the band holds lands on the same device pixels as in a whole-screen draw.

import Basemap
import Raster

extension NavigationScreen {
    /// Draws the map under everything, its labels clear of the screen's panels and buttons and
    /// of `marks`; returns the boxes of the labels drawn (device pixels).
    func drawUnderlay(
        _ underlay: any MapUnderlay, plan: ScreenPlan, marks: MapMarks, palette: NavigationPalette, night: Bool,
        on canvas: inout Canvas
    ) throws(RasterError) -> [Rect] {
        // Street names stay out of what the screen draws over the map; the map's own
        // rectangle is where they belong, and where the attribution stays visible.
        let scale = Double(options.scale)
        let keepOut: [LabelObstacle] =
            plan.layout.rects.filter { $0.name != "map" }.map { .box($0.rect.scaled(by: scale)) } + marks.obstacles(scale: scale)
        let visible = attributionArea(plan, underlay: underlay)
        let rows = mapRows(plan, palette: palette, night: night)
        guard rows.count < canvas.height else {
            return try underlay.draw(on: &canvas, camera: plan.camera, visibleArea: visible, keepOut: keepOut, lighting: lighting)
        }
        guard !rows.isEmpty else { return [] }
        let top = Double(rows.lowerBound)
        func shifted(_ rect: Rect) -> Rect { Rect(x: rect.x, y: rect.y - top, width: rect.width, height: rect.height) }
        var band = Canvas(width: canvas.width, height: rows.count, background: night ? style.map.nightBackground : style.map.background)
        let labels = try underlay.draw(
            on: &band, camera: plan.camera.cropped(x: 0, y: rows.lowerBound, width: canvas.width, height: rows.count),
            visibleArea: shifted(visible), keepOut: keepOut.map { $0.moved(dy: -top) }, lighting: lighting)
        canvas.replacePixels(with: band.image, x: 0, y: rows.lowerBound)
        return labels.map { Rect(x: $0.x, y: $0.y + top, width: $0.width, height: $0.height) }
    }

    /// The part of the screen the map shows through, device pixels.
    func mapArea(_ plan: ScreenPlan) -> Rect {
        (plan.layout["map"] ?? Rect(x: 0, y: 0, width: Double(options.width), height: Double(options.height)))
            .scaled(by: Double(options.scale))
    }

    /// The map's area with its bottom raised above any button or gauge the attribution's plate
    /// would lie under in the map's corner (a Re-center button on a narrow screen), so that the
    /// attribution stays whole and visible; device pixels.
    func attributionArea(_ plan: ScreenPlan, underlay: any MapUnderlay) -> Rect {
        var area = mapArea(plan)
        let controls = plan.layout.rects.filter { $0.name != "map" }.map { $0.rect.scaled(by: Double(options.scale)) }
        // Each round clears one more control; the area only shrinks, so this ends.
        for _ in 0...controls.count {
            guard let plate = underlay.attributionBox(camera: plan.camera, visibleArea: area, lighting: lighting) else { break }
            let covering = controls.filter { $0.intersects(plate) && $0.y > area.y && $0.y < area.maxY }
            guard let top = covering.map(\.y).min() else { break }
            area.height = max(1, top - area.y)
        }
        return area
    }

    /// The device-pixel rows the map can show through: all but those the opaque header covers
    /// at the top and the opaque footer (below its rounded corners) at the bottom, when they
    /// span the screen's width.
    func mapRows(_ plan: ScreenPlan, palette: NavigationPalette, night: Bool) -> Range<Int> {
        let scale = Double(options.scale)
        let width = Double(options.width)
        var top = 0.0
        for (name, color) in [
            ("headerPrimary", settings.headerPrimaryBackgroundColor(night: night)),
            ("headerSecondary", settings.headerSecondaryBackgroundColor(night: night)),
        ] {
            guard let rect = plan.layout[name], color.alpha == 255, rect.x <= 0, rect.maxX >= width, rect.y <= top else { break }
            top = max(top, rect.maxY)
        }
        var bottom = Double(options.height)
        if let footer = plan.layout["footer"], palette.panel.alpha == 255, footer.x <= 0, footer.maxX >= width,
            footer.maxY >= bottom
        {
            bottom = min(bottom, footer.y + Self.footerCornerRadius)
        }
        // Rows only partly covered still show the map.
        let first = max(0, Int((top * scale).rounded(.down)))
        let last = min(options.pixelHeight, Int((bottom * scale).rounded(.up)))
        return first..<max(first, last)
    }
}

extension LabelObstacle {
    /// The obstacle moved down by `dy` device pixels.
    func moved(dy: Double) -> LabelObstacle {
        switch self {
        case .box(let rect): .box(Rect(x: rect.x, y: rect.y + dy, width: rect.width, height: rect.height))
        case .line(let points, let width): .line(points.map { Point($0.x, $0.y + dy) }, width: width)
        }
    }
}
