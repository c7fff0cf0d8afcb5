// What part of the world a basemap picture shows: DESIGN §7's camera in Basemap's own terms
// (Basemap must not import Render). Web Mercator with a world 256·2^zoom pixels wide at
// scale 1 (times `scale` in device pixels), the centre at the image centre, rotated by the
// bearing (degrees clockwise from north at the top), pixel edges on integers. Contract:
// `point(_:)` agrees with Render's Camera for the same centre, zoom, bearing, size and scale.
//
// Zoom convention: published MapLibre styles and vector tiles (extent 4096 for 512-pixel
// tiles) count zoom one lower for the same ground resolution, so styles are evaluated at
// `styleZoom` = zoom − 1 and vector tiles are taken at floor(zoom − 1), as MapLibre would
// for the same picture.

import Foundation
import Geo
import Raster

/// The camera of a basemap picture.
public struct MapView: Hashable, Sendable {
    /// The location at the image centre.
    public var center: LatLng
    /// Zoom: the world is 256·2^zoom pixels wide at scale 1.
    public var zoom: Double
    /// Degrees clockwise from north at the top of the image.
    package var bearing: Double
    /// Image width in device pixels.
    package var pixelWidth: Int
    /// Image height in device pixels.
    package var pixelHeight: Int
    /// Device pixels per pixel at scale 1 (1–4): multiplies every width, size and dash.
    public var scale: Double

    /// A view from its device size.
    package init(center: LatLng, zoom: Double, bearing: Double = 0, pixelWidth: Int, pixelHeight: Int, scale: Double = 1) {
        self.center = center
        self.zoom = zoom
        self.bearing = bearing
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
    }

    /// A view from its size in pixels at scale 1.
    public init(center: LatLng, zoom: Double, bearing: Double = 0, width: Int, height: Int, scale: Double = 1) {
        self.init(
            center: center, zoom: zoom, bearing: bearing, pixelWidth: Int((Double(width) * scale).rounded()),
            pixelHeight: Int((Double(height) * scale).rounded()), scale: scale)
    }

    /// The zoom MapLibre styles are evaluated at for this view (one lower, see the file comment).
    package var styleZoom: Double { zoom - 1 }

    /// The device pixel of a location.
    public func point(_ location: LatLng) -> Point {
        let world = WebMercator.worldPoint(location, zoom: 0)
        let tileUnits = worldToDevice(tileZoom: 0)
        return tileUnits.apply(Point(world.x / 256, world.y / 256))
    }

    /// Maps world coordinates in tile units at `tileZoom` (tile (x, y) spans x…x+1, y…y+1)
    /// to device pixels.
    func worldToDevice(tileZoom: Int) -> Transform {
        let centerWorld = WebMercator.worldPoint(center, zoom: 0)
        let factor = exp2(zoom) * scale
        // Device pixels per tile unit at tileZoom.
        let perUnit = factor * 256 / exp2(Double(tileZoom))
        let radians = -bearing * .pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        let cx = centerWorld.x * factor
        let cy = centerWorld.y * factor
        return Transform(
            a: perUnit * cosine, b: perUnit * sine, c: -perUnit * sine, d: perUnit * cosine,
            tx: Double(pixelWidth) / 2 - (cx * cosine - cy * sine),
            ty: Double(pixelHeight) / 2 - (cx * sine + cy * cosine))
    }

    /// True when the view can be drawn: finite values, a zoom in 0…24, a positive size.
    var isDrawable: Bool {
        center.latitude.isFinite && center.longitude.isFinite && zoom.isFinite && zoom >= 0 && zoom <= 24 && bearing.isFinite
            && scale.isFinite && scale > 0 && pixelWidth > 0 && pixelHeight > 0
    }
}
