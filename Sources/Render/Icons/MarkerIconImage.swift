// A marker's icon on its own, as a PNG, for pages that draw markers over a map themselves
// (the rider's live page puts them on its Leaflet map). Contract: the picture is the icon as
// previews draw it, upright and unturned, `scale` device pixels per pixel at scale 1, on a
// transparent background; its size is the icon's size times the scale, rounded up, so
// `groundAnchor` fractions of it fall where they do in a preview.

import Foundation
import Raster
import Styling

/// Marker icons as standalone pictures.
package enum MarkerIconImage {
    /// The scales an icon is drawn at.
    package static let scales: ClosedRange<Double> = 1...4

    /// The picture of `icon` at `scale` (clamped to `scales`).
    package static func image(_ icon: MarkerIcon, scale: Double) throws(RasterError) -> Image {
        let scale = min(max(scale, scales.lowerBound), scales.upperBound)
        let (width, height): (Double, Double)
        var operations: [DisplayList.Operation] = []
        switch icon {
        case .builtin(let builtin):
            let vector = VectorIcon.builtin(builtin)
            (width, height) = (vector.width, vector.height)
            operations = vector.operations(transform: .scale(x: scale, y: scale))
        case .image(let picture):
            (width, height) = (picture.width, picture.height)
            let pixels = Transform.scale(x: scale / picture.density, y: scale / picture.density)
            operations = [.image(.init(image: picture.image, transform: pixels))]
        }
        let list = DisplayList(
            width: Int((width * scale).rounded(.up)), height: Int((height * scale).rounded(.up)), background: nil,
            operations: operations)
        return try list.render().image
    }

    /// `image(_:scale:)` as PNG bytes.
    package static func png(_ icon: MarkerIcon, scale: Double) throws(RasterError) -> [UInt8] {
        try PNGCodec.encode(try image(icon, scale: scale))
    }
}
