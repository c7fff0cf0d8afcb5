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
        /// The outline's hash, computed once per label: the cache's table hashes every key
        /// again each time it grows, and an outline is hundreds of numbers.
        let outlineHash: Int

        static func == (left: Key, right: Key) -> Bool {
            left.outlineHash == right.outlineHash && left.part == right.part && left.color == right.color
                && left.opacity == right.opacity && left.haloColor == right.haloColor && left.haloWidth == right.haloWidth
                && left.outline == right.outline
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(part)
            hasher.combine(color)
            hasher.combine(opacity)
            hasher.combine(haloColor)
            hasher.combine(haloWidth)
            hasher.combine(outlineHash)
        }
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

    /// The pictures of `label`'s halo (nil without one) and text, drawn now when not kept
    /// (with `scratch`'s buffers), placed; nil when its outline is not finite. The outline is
    /// measured and keyed once for both.
    func pictures(
        of label: PlacedLabel, tolerance: Double, haloTolerance: Double, scratch: inout CanvasScratch
    ) -> (halo: Placed?, text: Placed)? {
        let style = label.style
        let halo = style.haloWidth > 0 && style.haloColor.alpha > 0 ? style.haloWidth : 0
        let path = label.path
        let points = path.points
        let (minX, minY, maxX, maxY) = points.extremes
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        // One pixel beyond the halo, for its anti-aliasing. Labels are placed inside the
        // picture, so the size is bounded by the picture's.
        let margin = halo + 1
        let x = Int((minX - margin).rounded(.down))
        let y = Int((minY - margin).rounded(.down))
        let width = Int((maxX + margin).rounded(.up)) - x
        let height = Int((maxY + margin).rounded(.up)) - y
        let shape = Self.shape(path, points, x: Double(x), y: Double(y))
        let shapeHash = shape.hashValue
        func picture(_ part: Part) -> Placed {
            let key = Key(
                part: part, color: style.color, opacity: style.opacity, haloColor: style.haloColor, haloWidth: halo, outline: shape,
                outlineHash: shapeHash)
            let image = pictures.value(forKey: key, cost: Self.cost) {
                let outline = path.applying(.translation(x: -Double(x), y: -Double(y)))
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
        return (halo > 0 ? picture(.halo) : nil, picture(.text))
    }

    /// Bytes a picture holds.
    private static func cost(_ image: Image) -> Int { image.width * image.height * 4 + 64 }

    /// A path as integers, moved by (-x, -y): its verbs, then its points (`points`, the
    /// path's) in 1/64 pixels.
    private static func shape(_ path: Path, _ points: [Point], x: Double, y: Double) -> [Int32] {
        var shape: [Int32] = []
        shape.reserveCapacity(path.elements.count + points.count * 2)
        for element in path.elements {
            switch element {
            case .move: shape.append(0)
            case .line: shape.append(1)
            case .quad: shape.append(2)
            case .cubic: shape.append(3)
            case .close: shape.append(4)
            }
        }
        for point in points {
            shape.append(Int32(((point.x - x) * 64).rounded()))
            shape.append(Int32(((point.y - y) * 64).rounded()))
        }
        return shape
    }
}
