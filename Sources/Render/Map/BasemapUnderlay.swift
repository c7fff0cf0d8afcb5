// The basemap under the navigation screen: a `MapUnderlay` that draws a BasemapLayer with
// the style sheet's basemap style for the screen's lighting, at the screen's camera, keeping
// street names out of what the screen's own panels, route and markers will cover.

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

    /// Draws the map without its attribution; never throws (tiles that cannot be used are
    /// skipped and reported).
    @discardableResult
    public func draw(
        on canvas: inout Canvas, camera: Camera, visibleArea: Rect, keepOut: [LabelObstacle], lighting: LightingMode
    ) throws(RasterError) -> [Rect] {
        layer.basemap(for: map, lighting: lighting).draw(
            into: &canvas, view: MapView(camera: camera), keepOut: keepOut, attributionArea: visibleArea, attribution: false
        ).labelBoxes
    }

    /// Draws the attribution in the bottom-right corner of the visible area.
    public func drawAttribution(on canvas: inout Canvas, camera: Camera, visibleArea: Rect, lighting: LightingMode) {
        layer.basemap(for: map, lighting: lighting).drawAttribution(into: &canvas, view: MapView(camera: camera), area: visibleArea)
    }

    /// The attribution's plate in the bottom-right corner of the visible area.
    public func attributionBox(camera: Camera, visibleArea: Rect, lighting: LightingMode) -> Rect? {
        layer.basemap(for: map, lighting: lighting).attributionBox(view: MapView(camera: camera), area: visibleArea)
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
