// The seam for the map under the navigation screen. The basemap (vector tiles drawn by our own
// renderer) plugs in here without Render's navigation code knowing how tiles are read: the
// screen hands over its canvas, the camera (centre, fractional zoom, bearing, size, scale) and
// what it will draw over the map (its panels and buttons, the route, the markers), which
// street names must not go under; it draws the map's attribution itself, after its route and
// markers, so that nothing hides it.

import Basemap
import Navigation
import Raster

/// Draws the map under a navigation screen.
public protocol MapUnderlay: Sendable {
    /// Draws the map for `camera` onto `canvas` (of the camera's pixel size), in `lighting`'s
    /// colours, keeping labels out of `keepOut` and out of the attribution's place in the
    /// corner of `visibleArea`, the part the screen's panels leave free (device pixels), and
    /// returns the boxes of the labels drawn.
    @discardableResult
    func draw(
        on canvas: inout Canvas, camera: Camera, visibleArea: Rect, keepOut: [LabelObstacle], lighting: LightingMode
    ) throws(RasterError) -> [Rect]

    /// Draws the map's attribution where ``draw(on:camera:visibleArea:keepOut:lighting:)``
    /// kept its place.
    func drawAttribution(on canvas: inout Canvas, camera: Camera, visibleArea: Rect, lighting: LightingMode)

    /// Where the attribution goes in `visibleArea` (device pixels); nil when there is none.
    func attributionBox(camera: Camera, visibleArea: Rect, lighting: LightingMode) -> Rect?

    /// Changes whenever what the underlay draws for the same camera, keep-outs and lighting
    /// changes (its tile archive, its styles): screens' digests and ETags include it.
    var identity: String { get }
}

extension MapUnderlay {
    /// An underlay that says nothing about its content: one identity for all of its kind.
    public var identity: String { "\(Self.self)" }

    /// An underlay without an attribution draws none.
    public func drawAttribution(on canvas: inout Canvas, camera: Camera, visibleArea: Rect, lighting: LightingMode) {}

    /// An underlay without an attribution has no box for it.
    public func attributionBox(camera: Camera, visibleArea: Rect, lighting: LightingMode) -> Rect? { nil }
}
