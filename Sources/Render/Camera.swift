// The camera of DESIGN §7: Web Mercator with a world 256·2^zoom pixels wide at scale 1 (times
// `scale` in device pixels), the camera centre at the image centre, pixel edges on integer
// coordinates, rotated by the bearing. Without an explicit zoom (and/or centre) it fits the
// content: route vertices and marker anchors, each with the pixel extents its icon or badge
// covers on screen (those do not grow with zoom), inside the padding. That fit is exact: the
// span a set of points needs grows monotonically with 2^zoom, so a bisection finds the
// largest zoom at which everything fits.

import Foundation
import Geo
import Raster

/// Maps latitude/longitude to device pixels of a preview image.
public struct Camera: Hashable, Sendable {
    /// Image width in device pixels.
    package let pixelWidth: Int
    /// Image height in device pixels.
    package let pixelHeight: Int
    /// Device pixels per pixel at scale 1.
    public let scale: Double
    /// The zoom in use.
    public let zoom: Double
    /// Degrees clockwise from north at the top of the image.
    package let bearing: Double
    /// The centre, in zoom-0 world pixels.
    let centerWorld: WorldPoint
    /// Device pixels per zoom-0 world pixel.
    let factor: Double
    let cosine: Double
    let sine: Double

    /// A camera with an explicit centre and zoom.
    package init(center: LatLng, zoom: Double, bearing: Double, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.init(
            centerWorld: WebMercator.worldPoint(center, zoom: 0), zoom: zoom, bearing: bearing,
            pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
    }

    init(centerWorld: WorldPoint, zoom: Double, bearing: Double, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.zoom = zoom
        self.bearing = bearing
        self.centerWorld = centerWorld
        factor = exp2(zoom) * scale
        // Screen = rotation by -bearing of world offsets (y down, positive angles clockwise).
        let radians = -bearing * .pi / 180
        cosine = cos(radians)
        sine = sin(radians)
    }

    /// The device pixel of a location.
    public func point(_ location: LatLng) -> Point {
        point(world: WebMercator.worldPoint(location, zoom: 0))
    }

    /// The device pixel of a zoom-0 world point.
    func point(world: WorldPoint) -> Point {
        let dx = (world.x - centerWorld.x) * factor
        let dy = (world.y - centerWorld.y) * factor
        return Point(
            x: Double(pixelWidth) / 2 + dx * cosine - dy * sine,
            y: Double(pixelHeight) / 2 + dx * sine + dy * cosine)
    }

    /// The camera's centre as a location.
    public var center: LatLng { WebMercator.latLng(centerWorld, zoom: 0) }

    /// At a whole zoom and bearing 0, the camera moved by at most half a device pixel so
    /// that its pixel edges fall on whole device pixels of the world: every such picture of
    /// one place then shares its pixels with the others, and the basemap puts it together from
    /// pictures of squares it keeps (Basemap's RenderedSquares). Other cameras are unchanged.
    package func pixelAligned() -> Camera {
        guard bearing == 0, zoom == zoom.rounded() else { return self }
        let left = (centerWorld.x * factor - Double(pixelWidth) / 2).rounded()
        let top = (centerWorld.y * factor - Double(pixelHeight) / 2).rounded()
        let aligned = WorldPoint(x: (left + Double(pixelWidth) / 2) / factor, y: (top + Double(pixelHeight) / 2) / factor)
        return Camera(centerWorld: aligned, zoom: zoom, bearing: bearing, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
    }
}

/// Something the fitted camera must show: a location and the device pixels it covers
/// around it on screen (left, right, up, down of its point, at the image's scale).
struct FitItem {
    var world: WorldPoint
    var left = 0.0
    var right = 0.0
    var up = 0.0
    var down = 0.0
}

extension Camera {
    /// The zoom used for content that is a single point.
    static let singlePointZoom = 16.0
    /// The largest zoom a fit chooses.
    static let maximumFitZoom = 19.0

    /// A camera showing route vertices (each covering `routeExtent` device pixels around it)
    /// and `items` inside `padding` device pixels, and above the bottom's `reservedBottom`
    /// device pixels where that is more (an attribution's strip), honouring a given centre or
    /// zoom; with nothing to show it looks at the given centre (or the whole world).
    static func fitting(
        routePoints: [WorldPoint], routeExtent: Double, items: [FitItem], center: LatLng?, zoom: Double?,
        bearing: Double, pixelWidth: Int, pixelHeight: Int, scale: Double, padding: Double, reservedBottom: Double = 0
    ) -> Camera {
        let radians = -bearing * .pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        // Zoom-0 world points in screen orientation (rotated about the origin).
        func rotate(_ p: WorldPoint) -> (x: Double, y: Double) { (p.x * cosine - p.y * sine, p.x * sine + p.y * cosine) }
        // Route vertices have equal extents, so their rotated bounding box stands for all of them.
        var routeBox = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
        for point in routePoints {
            let p = rotate(point)
            routeBox = (min(routeBox.minX, p.x), max(routeBox.maxX, p.x), min(routeBox.minY, p.y), max(routeBox.maxY, p.y))
        }
        let rotated = items.map { rotate($0.world) }
        let fixedCenter = center.map { WebMercator.worldPoint($0, zoom: 0) }
        let halfWidth = Double(pixelWidth) / 2 - padding
        // Free space above and below the content, device pixels: the bottom may need more.
        let top = padding
        let bottom = min(max(padding, reservedBottom), max(padding, Double(pixelHeight) - top - 1))

        func make(_ world: WorldPoint, _ zoom: Double) -> Camera {
            Camera(centerWorld: world, zoom: zoom, bearing: bearing, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        guard !items.isEmpty || !routePoints.isEmpty else {
            return make(fixedCenter ?? WorldPoint(x: 128, y: 128), zoom ?? (center == nil ? 1 : singlePointZoom))
        }

        /// The screen-space box (device pixels, rotated, origin at the world origin) at `k`
        /// device pixels per zoom-0 world pixel.
        func box(_ k: Double) -> (minX: Double, maxX: Double, minY: Double, maxY: Double) {
            var box = (minX: Double.infinity, maxX: -Double.infinity, minY: Double.infinity, maxY: -Double.infinity)
            if !routePoints.isEmpty {
                box = (
                    routeBox.minX * k - routeExtent, routeBox.maxX * k + routeExtent,
                    routeBox.minY * k - routeExtent, routeBox.maxY * k + routeExtent
                )
            }
            for (item, p) in zip(items, rotated) {
                box.minX = min(box.minX, p.x * k - item.left)
                box.maxX = max(box.maxX, p.x * k + item.right)
                box.minY = min(box.minY, p.y * k - item.up)
                box.maxY = max(box.maxY, p.y * k + item.down)
            }
            return box
        }
        func fits(_ k: Double) -> Bool {
            let b = box(k)
            if let fixedCenter {
                let c = rotate(fixedCenter)
                return b.maxX - c.x * k <= halfWidth && c.x * k - b.minX <= halfWidth
                    && b.maxY - c.y * k <= Double(pixelHeight) / 2 - bottom && c.y * k - b.minY <= Double(pixelHeight) / 2 - top
            }
            return b.maxX - b.minX <= 2 * halfWidth && b.maxY - b.minY <= Double(pixelHeight) - top - bottom
        }
        var corners = rotated
        if !routePoints.isEmpty { corners += [(routeBox.minX, routeBox.minY), (routeBox.maxX, routeBox.maxY)] }
        let single = corners.allSatisfy { $0 == corners[0] }

        let chosenZoom: Double
        if let zoom {
            chosenZoom = zoom
        } else {
            var low = PreviewOptions.zoomRange.lowerBound
            var high = single && fixedCenter == nil ? singlePointZoom : maximumFitZoom
            if fits(exp2(high) * scale) {
                low = high
            } else {
                for _ in 0..<48 {
                    let middle = (low + high) / 2
                    if fits(exp2(middle) * scale) { low = middle } else { high = middle }
                }
            }
            chosenZoom = low
            // Padding is room to spare: on a small picture, where the markers and the badge
            // alone nearly fill it, keeping it would shrink the trip to a dot (or could not keep
            // them whole at any zoom). There they are kept whole without it.
            if padding > 0 {
                let tight = fitting(
                    routePoints: routePoints, routeExtent: routeExtent, items: items, center: center, zoom: nil, bearing: bearing,
                    pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, padding: 0, reservedBottom: reservedBottom)
                if !fits(exp2(chosenZoom) * scale) || tight.zoom - chosenZoom > 1 { return tight }
            }
        }
        if let fixedCenter { return make(fixedCenter, chosenZoom) }
        // Centre the content's box in the space the padding leaves; rotate its centre back
        // into world orientation.
        let k = exp2(chosenZoom) * scale
        let b = box(k)
        let cx = (b.minX + b.maxX) / 2 / k
        let cy = ((b.minY + b.maxY) / 2 - (top - bottom) / 2) / k
        let world = WorldPoint(x: cx * cosine + cy * sine, y: -cx * sine + cy * cosine)
        return make(world, chosenZoom)
    }
}
