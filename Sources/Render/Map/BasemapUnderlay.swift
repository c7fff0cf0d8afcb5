// The basemap under the navigation screen: a `MapUnderlay` that draws a BasemapLayer with
// the style sheet's basemap style for the screen's lighting, at the screen's camera, keeping
// street names out of the rectangles the screen's own panels and markers will cover.

import Basemap
import Navigation
import Raster
import Styling

/// A basemap drawn as the navigation screen's map.
public struct BasemapUnderlay: MapUnderlay {
    /// The tiles and styles.
    public let layer: BasemapLayer
    /// The style sheet's map options (which basemap style by day and at night).
    public let map: MapStyleOptions

    /// An underlay drawing `layer` with the basemap styles `map` names.
    public init(layer: BasemapLayer, map: MapStyleOptions) {
        self.layer = layer
        self.map = map
    }

    /// Draws the map; never throws (tiles that cannot be used are skipped and reported).
    public func draw(
        on canvas: inout Canvas, camera: Camera, visibleArea: LayoutRect, keepOut: [LayoutRect], lighting: LightingMode
    ) throws(RasterError) {
        let rects = keepOut.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        let area = Rect(x: visibleArea.x, y: visibleArea.y, width: visibleArea.width, height: visibleArea.height)
        layer.basemap(for: map, lighting: lighting).draw(into: &canvas, view: MapView(camera: camera), keepOut: rects, attributionArea: area)
    }

    /// The archive and both styles the screen may be drawn with.
    public var identity: String {
        "\(layer.basemap(for: map, lighting: .normal).identity)|\(layer.basemap(for: map, lighting: .lowLight).style.identity)"
    }
}

extension MapView {
    /// The basemap's view of exactly what a preview or screen camera shows.
    public init(camera: Camera) {
        self.init(
            center: camera.center, zoom: camera.zoom, bearing: camera.bearing, pixelWidth: camera.pixelWidth,
            pixelHeight: camera.pixelHeight, scale: camera.scale)
    }
}
