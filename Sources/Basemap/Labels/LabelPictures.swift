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
    struct Key: Hashable, Sendable {
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

    /// The picture of `label` (drawn now when not kept, with `scratch`'s buffers), placed.
    func picture(of label: PlacedLabel, tolerance: Double, haloTolerance: Double, scratch: inout CanvasScratch) -> Placed? {
        let style = label.style
        let halo = style.haloWidth > 0 && style.haloColor.alpha > 0 ? style.haloWidth : 0
        guard let bounds = Self.bounds(label.path) else { return nil }
        // One pixel beyond the halo, for its anti-aliasing.
        let margin = halo + 1
        let x = Int((bounds.minX - margin).rounded(.down))
        let y = Int((bounds.minY - margin).rounded(.down))
        let width = Int((bounds.maxX + margin).rounded(.up)) - x
        let height = Int((bounds.maxY + margin).rounded(.up)) - y
        guard width > 0, height > 0, width < 4096, height < 4096 else { return nil }
        let outline = Self.translated(label.path, x: -Double(x), y: -Double(y))
        let key = Key(
            color: style.color, opacity: style.opacity, haloColor: style.haloColor, haloWidth: halo, outline: Self.shape(outline))
        if let kept = pictures.value(forKey: key) { return Placed(image: kept, x: x, y: y) }
        let image: Image = {
            var canvas = Canvas(width: width, height: height)
            canvas.exchangeScratch(&scratch)
            defer { canvas.exchangeScratch(&scratch) }
            var set = PolygonSet()
            if halo > 0 {
                set.addPathStroke(outline, style: StrokeStyle(width: halo * 2, cap: .round, join: .round), tolerance: haloTolerance)
                canvas.fill(set, color: style.haloColor, opacity: style.opacity)
                set.removeAll()
            }
            set.addPath(outline, tolerance: tolerance)
            canvas.fill(set, color: style.color, opacity: style.opacity)
            return canvas.image
        }()
        pictures.setValue(image, forKey: key, cost: width * height * 4 + 64)
        return Placed(image: image, x: x, y: y)
    }

    /// The bounding box of a path's points (control points included).
    private static func bounds(_ path: Path) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        func add(_ p: Point) { box = (min(box.minX, p.x), min(box.minY, p.y), max(box.maxX, p.x), max(box.maxY, p.y)) }
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p):
                add(c)
                add(p)
            case .cubic(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .close: break
            }
        }
        guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return nil }
        return box
    }

    /// A path moved by (x, y).
    private static func translated(_ path: Path, x: Double, y: Double) -> Path {
        func move(_ p: Point) -> Point { Point(p.x + x, p.y + y) }
        return Path(
            elements: path.elements.map { element in
                switch element {
                case .move(let p): .move(move(p))
                case .line(let p): .line(move(p))
                case .quad(let c, let p): .quad(control: move(c), to: move(p))
                case .cubic(let c1, let c2, let p): .cubic(control1: move(c1), control2: move(c2), to: move(p))
                case .close: .close
                }
            })
    }

    /// A path as integers: each element's verb, then its points in 1/64 pixels.
    private static func shape(_ path: Path) -> [Int32] {
        var shape: [Int32] = []
        shape.reserveCapacity(path.elements.count * 4)
        func add(_ p: Point) {
            shape.append(Int32((p.x * 64).rounded()))
            shape.append(Int32((p.y * 64).rounded()))
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                shape.append(0)
                add(p)
            case .line(let p):
                shape.append(1)
                add(p)
            case .quad(let c, let p):
                shape.append(2)
                add(c)
                add(p)
            case .cubic(let c1, let c2, let p):
                shape.append(3)
                add(c1)
                add(c2)
                add(p)
            case .close:
                shape.append(4)
            }
        }
        return shape
    }
}
