// Glyphs for MapLibre clients (the `glyphs` URL of a published style): 256 code points of a
// font stack as signed distance fields, in the glyph protobuf MapLibre GL JS and MapLibre
// Native read. Drawn from the same fonts the basemap labels with (DejaVu Sans in the weight
// and slant the stack's first name asks for), so MapLibre's labels match ours. Contract, as
// MapLibre expects glyphs:
// - metrics in pixels at a 24-pixel em: `left` and `top` are the outline's box, left edge and
//   top edge above the baseline (floor and ceiling), `width` and `height` its size, `advance`
//   the pen's advance; the bitmap is (width + 6) × (height + 6), one byte per pixel, 3 pixels
//   of border around the box;
// - a pixel holds 192 on the outline, rising 32 per pixel inside and falling 32 per pixel
//   outside (a radius of 8 pixels, cut off at a quarter: TinySDF's encoding);
// - code points the font lacks are left out (MapLibre draws nothing for them); blank glyphs
//   (spaces) have an advance and no bitmap.

import Foundation
import Raster

/// Glyph ranges as MapLibre's glyph protobufs.
package enum GlyphRange {
    /// Pixels per em of the glyphs.
    static let size = 24.0
    /// Border around a glyph's box, in pixels.
    static let border = 3
    /// Distance, in pixels, over which the field goes from 0 to 255.
    static let radius = 8.0
    /// The share of `radius` outside the outline.
    static let cutoff = 0.25

    /// The glyphs of code points `first` to `first + 255` (`first` a multiple of 256, below
    /// 65536) for `fontStack` (comma-separated font names, as MapLibre asks), as a protobuf;
    /// nil for a range outside that.
    package static func pbf(fontStack: String, first: Int) -> [UInt8]? {
        guard first >= 0, first < 65_536, first % 256 == 0 else { return nil }
        let names = fontStack.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let font = MapPainter.font(for: names) else { return nil }
        var glyphs = ProtobufWriter()
        for value in first..<(first + 256) {
            guard let scalar = Unicode.Scalar(value), !scalar.properties.generalCategory.isControl, font.hasGlyph(for: scalar)
            else { continue }
            guard let glyph = Self.glyph(scalar, font: font) else { continue }
            glyphs.message(3, glyph)
        }
        var stack = ProtobufWriter()
        stack.string(1, fontStack)
        stack.string(2, "\(first)-\(first + 255)")
        stack.append(glyphs)
        var root = ProtobufWriter()
        root.message(1, stack)
        return root.bytes
    }

    /// One glyph's message: id, bitmap, width, height, left, top, advance.
    static func glyph(_ scalar: Unicode.Scalar, font: Font) -> ProtobufWriter? {
        guard let layout = try? TextLayout(text: String(Character(scalar)), font: font, size: size), layout.glyphCount == 1,
            let outline = try? layout.outline()
        else { return nil }
        var message = ProtobufWriter()
        message.varint(1, UInt64(scalar.value))
        let advance = UInt64(max(0, layout.glyphAdvance(0).rounded()))
        let segments = Self.segments(of: outline)
        let points = outline.points
        guard !segments.isEmpty, let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
            let minY = points.map(\.y).min(), let maxY = points.map(\.y).max()
        else {
            for (field, value) in [(3, 0), (4, 0)] { message.varint(field, UInt64(value)) }
            message.signed(5, 0)
            message.signed(6, 0)
            message.varint(7, advance)
            return message
        }
        // The outline's box in whole pixels; y grows downwards in the outline, upwards in `top`.
        let left = Int(minX.rounded(.down))
        let top = Int((-minY).rounded(.up))
        let width = Int(maxX.rounded(.up)) - left
        let height = top - Int((-maxY).rounded(.down))
        let columns = width + 2 * border
        let rows = height + 2 * border
        var bitmap = [UInt8](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            // Pixel centres, in the outline's coordinates.
            let y = Double(row - border - top) + 0.5
            for column in 0..<columns {
                let x = Double(left - border + column) + 0.5
                let distance = Self.distance(from: Point(x, y), to: segments)
                let signed = Self.winding(of: Point(x, y), in: segments) != 0 ? -distance : distance
                let value = 255 - 255 * (signed / radius + cutoff)
                bitmap[row * columns + column] = UInt8(min(max(value.rounded(), 0), 255))
            }
        }
        message.data(2, bitmap)
        message.varint(3, UInt64(width))
        message.varint(4, UInt64(height))
        message.signed(5, left)
        message.signed(6, top)
        message.varint(7, advance)
        return message
    }

    /// The outline as straight segments (curves flattened finely enough for a field whose
    /// pixels are 1/24 em).
    static func segments(of path: Path) -> [(Point, Point)] {
        var segments: [(Point, Point)] = []
        var start = Point(0, 0)
        var current = Point(0, 0)
        func line(to point: Point) {
            if point != current { segments.append((current, point)) }
            current = point
        }
        for element in path.elements {
            switch element {
            case .move(let point):
                line(to: start)
                start = point
                current = point
            case .line(let point):
                line(to: point)
            case .quad(let control, let point):
                let from = current
                for step in 1...8 {
                    let t = Double(step) / 8
                    let a = (1 - t) * (1 - t)
                    let b = 2 * (1 - t) * t
                    let c = t * t
                    line(to: Point(a * from.x + b * control.x + c * point.x, a * from.y + b * control.y + c * point.y))
                }
            case .cubic(let control1, let control2, let point):
                let from = current
                for step in 1...12 {
                    let t = Double(step) / 12
                    let u = 1 - t
                    let a = u * u * u
                    let b = 3 * u * u * t
                    let c = 3 * u * t * t
                    let d = t * t * t
                    line(
                        to: Point(
                            a * from.x + b * control1.x + c * control2.x + d * point.x,
                            a * from.y + b * control1.y + c * control2.y + d * point.y))
                }
            case .close:
                line(to: start)
            }
        }
        line(to: start)
        return segments
    }

    /// The distance from `point` to the nearest segment.
    static func distance(from point: Point, to segments: [(Point, Point)]) -> Double {
        var best = Double.infinity
        for (a, b) in segments {
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = dx * dx + dy * dy
            let t = length > 0 ? min(max(((point.x - a.x) * dx + (point.y - a.y) * dy) / length, 0), 1) : 0
            let x = a.x + t * dx - point.x
            let y = a.y + t * dy - point.y
            best = min(best, x * x + y * y)
        }
        return best.squareRoot()
    }

    /// The winding number of the outline around `point` (non-zero inside, as glyphs fill).
    static func winding(of point: Point, in segments: [(Point, Point)]) -> Int {
        var winding = 0
        for (a, b) in segments {
            if a.y <= point.y {
                if b.y > point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) > 0 { winding += 1 }
            } else if b.y <= point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) < 0 {
                winding -= 1
            }
        }
        return winding
    }
}

extension Unicode.GeneralCategory {
    /// Control and format characters, which have no glyph to draw.
    fileprivate var isControl: Bool { self == .control || self == .format || self == .surrogate || self == .privateUse }
}
