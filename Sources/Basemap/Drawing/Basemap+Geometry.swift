import Raster

extension Basemap {
    /// The fills and lines alone, drawn by our rasteriser as ``draw(into:view:keepOut:)``
    /// draws them (no labels, no attribution): the pixels ``geometryDisplayList(view:)``
    /// describes, for comparing the rasteriser with a reference renderer.
    package func drawGeometry(view: MapView) -> Image {
        var painter = MapPainter(basemap: self, view: view, recorder: nil)
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        painter.paint(into: &canvas, keepOut: [], labels: false)
        return canvas.image
    }
}
