// The seam for the map under the navigation screen. The basemap (vector tiles drawn by our own
// renderer) plugs in here without Render's navigation code knowing how tiles are read: the
// screen hands over its canvas, the camera (centre, fractional zoom, bearing, size, scale) and
// the rectangles its own elements will cover, where labels would be hidden.

import Navigation
import Raster

/// Draws the map under a navigation screen.
public protocol MapUnderlay: Sendable {
    /// Draws the whole map for `camera` onto `canvas` (of the camera's pixel size), in
    /// `lighting`'s colours, keeping labels out of `keepOut` and the attribution inside
    /// `visibleArea`, the part the screen's panels leave free (device pixels).
    func draw(on canvas: inout Canvas, camera: Camera, visibleArea: LayoutRect, keepOut: [LayoutRect], lighting: LightingMode) throws(RasterError)

    /// Changes whenever what the underlay draws for the same camera, keep-outs and lighting
    /// changes (its tile archive, its styles): screens' digests and ETags include it.
    var identity: String { get }
}

extension MapUnderlay {
    /// An underlay that says nothing about its content: one identity for all of its kind.
    public var identity: String { "\(Self.self)" }
}
