// Pictures of placed labels, each its halo and its text drawn once and kept, then copied
// onto every picture that places the same label at the same spot within a pixel (the same
// view drawn again, or moved by whole pixels). Contract:
// - a label's picture is its halo then its text, each with the label's opacity, on a
//   transparent canvas whose origin is a whole device pixel: copied over the map it gives
//   the pixels drawing them there directly gives, but for rounding;
// - the key is the glyph outlines relative to that origin, rounded to 1/64 pixel, and every
//   paint value: the same key draws the same picture;
// - the pictures are bounded in bytes (BoundedCache).

import Caching
import Raster

/// Kept pictures of labels, shared by every draw of a basemap and its restyled twins.
final class LabelPictures: Sendable {
    /// A label is drawn as two pictures: its halo, then (after every halo of its style
    /// layer) its text.
    enum Part: Hashable, Sendable {
        case halo, text
    }

    struct Key: Hashable, Sendable {
        let part: Part
        let color: Color
        let opacity: Double
        let haloColor: Color
        let haloWidth: Double
        /// Outline verbs and points (x, y in 1/64 pixels from the picture's origin).
        let outline: [Int32]
    }

    /// A label's picture and where its top-left corner goes on the map.
    struct Placed {
        let image: Image
        let x: Int
        let y: Int
    }

    private let pictures: BoundedCache<Key, Image>

    /// At most `capacity` bytes of pictures.
    init(capacity: Int) {
        pictures = BoundedCache(capacity: 16_384, costLimit: max(capacity, 0))
    }

    /// Bytes held now.
    var byteCount: Int { pictures.totalCost }

    /// The picture of one part of `label` (drawn now when not kept, with `scratch`'s
    /// buffers), placed; nil for the halo of a label without one.
    func picture(
        of label: PlacedLabel, _ part: Part, tolerance: Double, haloTolerance: Double, scratch: inout CanvasScratch
    ) -> Placed? {
        let style = label.style
        let halo = style.haloWidth > 0 && style.haloColor.alpha > 0 ? style.haloWidth : 0
        if part == .halo && halo == 0 { return nil }
        let points = label.path.points
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(), let minY = points.map(\.y).min(),
            let maxY = points.map(\.y).max(), minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite
        else { return nil }
        // One pixel beyond the halo, for its anti-aliasing. Labels are placed inside the
        // picture, so the size is bounded by the picture's.
        let margin = halo + 1
        let x = Int((minX - margin).rounded(.down))
        let y = Int((minY - margin).rounded(.down))
        let width = Int((maxX + margin).rounded(.up)) - x
        let height = Int((maxY + margin).rounded(.up)) - y
        let outline = label.path.applying(.translation(x: -Double(x), y: -Double(y)))
        let key = Key(
            part: part, color: style.color, opacity: style.opacity, haloColor: style.haloColor, haloWidth: halo,
            outline: Self.shape(outline))
        let image = pictures.value(forKey: key, cost: Self.cost) {
            var canvas = Canvas(width: width, height: height)
            canvas.exchangeScratch(&scratch)
            defer { canvas.exchangeScratch(&scratch) }
            var set = PolygonSet()
            switch part {
            case .halo:
                set.addPathStroke(outline, style: StrokeStyle(width: halo * 2, cap: .round, join: .round), tolerance: haloTolerance)
                canvas.fill(set, color: style.haloColor, opacity: style.opacity)
            case .text:
                set.addPath(outline, tolerance: tolerance)
                canvas.fill(set, color: style.color, opacity: style.opacity)
            }
            return canvas.image
        }
        return Placed(image: image, x: x, y: y)
    }

    /// Bytes a picture holds.
    private static func cost(_ image: Image) -> Int { image.width * image.height * 4 + 64 }

    /// A path as integers: each element's verb, then its points in 1/64 pixels.
    private static func shape(_ path: Path) -> [Int32] {
        var shape: [Int32] = []
        shape.reserveCapacity(path.elements.count * 4)
        for element in path.elements {
            switch element {
            case .move: shape.append(0)
            case .line: shape.append(1)
            case .quad: shape.append(2)
            case .cubic: shape.append(3)
            case .close: shape.append(4)
            }
            for point in element.points {
                shape.append(Int32((point.x * 64).rounded()))
                shape.append(Int32((point.y * 64).rounded()))
            }
        }
        return shape
    }
}
