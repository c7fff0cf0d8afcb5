// Cameras placed by a point rather than by the image centre: the navigation screen puts the
// vehicle low in the map area, not in the middle of the image, and fits an overview into the
// part of the screen the header and footer leave free.

import Foundation
import Geo
import Raster

extension Camera {
    /// A camera at `zoom` and `bearing` that shows the world point `world` at device pixel
    /// `pixel`.
    static func anchored(
        world: WorldPoint, at pixel: Point, zoom: Double, bearing: Double,
        pixelWidth: Int, pixelHeight: Int, scale: Double
    ) -> Camera {
        let factor = exp2(zoom) * scale
        let radians = -bearing * .pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        // Screen offset from the image centre, rotated back into world orientation.
        let u = (pixel.x - Double(pixelWidth) / 2) / factor
        let v = (pixel.y - Double(pixelHeight) / 2) / factor
        let dx = u * cosine + v * sine
        let dy = -u * sine + v * cosine
        return Camera(
            centerWorld: WorldPoint(x: world.x - dx, y: world.y - dy), zoom: zoom, bearing: bearing,
            pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
    }

    /// The camera of a whole-pixel part of this one's image (`x`, `y`, `width`, `height` in
    /// device pixels): the same zoom, bearing and scale, so that everything lands on the same
    /// pixels as in the whole image, shifted by (`x`, `y`).
    func cropped(x: Int, y: Int, width: Int, height: Int) -> Camera {
        Camera(
            centerWorld: world(atPixel: Point(Double(x) + Double(width) / 2, Double(y) + Double(height) / 2)), zoom: zoom,
            bearing: bearing, pixelWidth: width, pixelHeight: height, scale: scale)
    }

    /// The zoom-0 world point under a device pixel.
    func world(atPixel pixel: Point) -> WorldPoint {
        let u = (pixel.x - Double(pixelWidth) / 2) / factor
        let v = (pixel.y - Double(pixelHeight) / 2) / factor
        return WorldPoint(x: centerWorld.x + u * cosine + v * sine, y: centerWorld.y - u * sine + v * cosine)
    }

    /// The world box the image covers, grown by `margin` device pixels on every side.
    func visibleWorldBox(margin: Double) -> WorldBox {
        let w = Double(pixelWidth)
        let h = Double(pixelHeight)
        return WorldBox(
            [Point(-margin, -margin), Point(w + margin, -margin), Point(-margin, h + margin), Point(w + margin, h + margin)]
                .map { world(atPixel: $0) })
    }
}
