// The map underlay under the navigation screen, drawn only where it can show: the header and
// the footer are opaque across a portrait screen, so the map is drawn into the band of rows
// between them (a quarter of a phone's pixels fewer to fill, and the tiles and features wholly
// behind the panels skipped) with the screen's camera cropped to that band, then copied in.
// Everything the band holds lands on the same device pixels as in a whole-screen draw.

import Raster

extension NavigationScreen {
    func drawUnderlay(
        _ underlay: any MapUnderlay, plan: ScreenPlan, palette: NavigationPalette, night: Bool, on canvas: inout Canvas
    ) throws(RasterError) {
        // Street names stay out of what the screen draws over the map; the map's own
        // rectangle is where they belong, and where the attribution stays visible.
        let scale = Double(options.scale)
        let keepOut = plan.layout.rects.filter { $0.name != "map" }.map { $0.rect.scaled(by: scale) }
        let visible = (plan.layout["map"] ?? LayoutRect(x: 0, y: 0, width: Double(options.width), height: Double(options.height)))
            .scaled(by: scale)
        let rows = mapRows(plan, palette: palette, night: night)
        guard rows.count < canvas.height else {
            try underlay.draw(on: &canvas, camera: plan.camera, visibleArea: visible, keepOut: keepOut, lighting: lighting)
            return
        }
        guard !rows.isEmpty else { return }
        let top = Double(rows.lowerBound)
        func shifted(_ rect: LayoutRect) -> LayoutRect { LayoutRect(x: rect.x, y: rect.y - top, width: rect.width, height: rect.height) }
        var band = Canvas(width: canvas.width, height: rows.count, background: night ? style.map.nightBackground : style.map.background)
        try underlay.draw(
            on: &band, camera: plan.camera.cropped(x: 0, y: rows.lowerBound, width: canvas.width, height: rows.count),
            visibleArea: shifted(visible), keepOut: keepOut.map(shifted), lighting: lighting)
        canvas.replacePixels(with: band.image, x: 0, y: rows.lowerBound)
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
