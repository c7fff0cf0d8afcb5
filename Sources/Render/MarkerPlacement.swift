// Markers on the preview: the icon (built-in vector or PNG) placed so that its ground anchor
// sits on the marker's location. Upright markers snap that point to a whole pixel, so their
// straight edges and PNG pixels land on the pixel grid; flat markers keep sub-pixel
// positions and turn by heading minus the camera's bearing (known before the camera is
// fitted, so the fit uses each icon's exact turned extent).

import Foundation
import Geo
import Raster
import Styling

/// A visible marker with its style and size.
struct MarkerPlacement {
    var marker: TripScene.Marker
    var options: MarkerStyleOptions
    var world: WorldPoint
    /// Icon size in pixels at scale 1.
    var width: Double
    var height: Double
    var scale: Double
    /// A stop's number, laid out (built-in stop icons only).
    var number: TextLayout?
    /// The clockwise turn relative to the screen, in radians: heading minus bearing for flat
    /// markers, none for upright ones.
    var rotation = 0.0

    /// The icon point on the location, in device pixels from the icon's top-left corner.
    var anchor: Point { Point(options.groundAnchor.x * width * scale, options.groundAnchor.y * height * scale) }

    /// The device pixel the anchor lands on.
    func position(_ camera: Camera) -> Point {
        let point = camera.point(world: world)
        return options.isFlat ? point : Point(point.x.rounded(), point.y.rounded())
    }

    /// What the camera must keep in view: the (turned) icon around its anchor.
    var fitItem: FitItem {
        let a = anchor
        let w = width * scale
        let h = height * scale
        let turn = Transform.rotation(radians: rotation)
        let corners = [Point(0, 0), Point(w, 0), Point(0, h), Point(w, h)].map { turn.apply(Point($0.x - a.x, $0.y - a.y)) }
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        return FitItem(world: world, left: -(xs.min() ?? 0), right: xs.max() ?? 0, up: -(ys.min() ?? 0), down: ys.max() ?? 0)
    }

    /// The device pixels the icon covers (at any turn, for flat markers).
    func box(_ camera: Camera) -> Box {
        let p = position(camera)
        let item = fitItem
        return Box(minX: p.x - item.left, minY: p.y - item.up, maxX: p.x + item.right, maxY: p.y + item.down)
    }

    /// Icon pixels (scale 1) → canvas pixels.
    func transform(_ camera: Camera) -> Transform {
        let p = position(camera)
        let a = anchor
        return Transform.scale(x: scale, y: scale)
            .translatedBy(x: -a.x, y: -a.y)
            .rotatedBy(radians: rotation)
            .translatedBy(x: p.x, y: p.y)
    }

    /// Adds the icon's operations (and a stop's number).
    func draw(camera: Camera, into operations: inout [DisplayList.Operation]) {
        let transform = transform(camera)
        switch options.icon {
        case .builtin(let builtin):
            let icon = VectorIcon.builtin(builtin)
            operations += icon.operations(transform: transform)
            if let number, let text = marker.number {
                // Upright text centred on the disc, whatever the marker's turn.
                let center = transform.apply(Point(icon.width / 2, icon.height / 2))
                let origin = Point(center.x - number.width / 2, center.y + Badge.capHeight * number.size / 2)
                operations.append(
                    .text(
                        .init(
                            text: String(text), origin: origin, size: number.size,
                            color: VectorIcon.stopNumberColor, bold: true)))
            }
        case .image(let icon):
            let pixels = Transform.scale(x: 1 / icon.density, y: 1 / icon.density).concatenating(transform)
            operations.append(.image(.init(image: icon.image, transform: pixels)))
        }
    }
}

extension TripPreview {
    /// The visible markers in drawing order: by zIndex, ties in scene order.
    func markerPlacements(_ scene: TripScene, scale: Double) throws(RasterError) -> [MarkerPlacement] {
        var placements: [MarkerPlacement] = []
        for marker in scene.markers {
            let options = style[marker: marker.type]
            guard options.isVisible else { continue }
            var placement = MarkerPlacement(
                marker: marker, options: options, world: WebMercator.worldPoint(marker.location, zoom: 0),
                width: 0, height: 0, scale: scale)
            if options.isFlat { placement.rotation = ((marker.heading ?? 0) - self.options.bearing) * .pi / 180 }
            switch options.icon {
            case .builtin(let builtin):
                let icon = VectorIcon.builtin(builtin)
                placement.width = icon.width
                placement.height = icon.height
                if builtin == .stop, let number = marker.number {
                    placement.number = try TextLayout(text: String(number), font: Font.dejaVuSans(bold: true), size: 11 * scale)
                }
            case .image(let icon):
                placement.width = icon.width
                placement.height = icon.height
            }
            placements.append(placement)
        }
        return placements.enumerated()
            .sorted { ($0.element.options.zIndex, $0.offset) < ($1.element.options.zIndex, $1.offset) }
            .map(\.element)
    }
}
