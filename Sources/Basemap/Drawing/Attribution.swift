// The attribution every basemap picture carries (DESIGN §7): the archive's `attribution`
// metadata with HTML tags removed and entities decoded, else "© OpenStreetMap contributors";
// drawn small in the bottom-right corner on a translucent plate whose colours follow the
// style's background, so it stays legible by day and by night, and whole at every size
// (wrapped onto more lines rather than cut).

import Foundation
import Raster

enum Attribution {
    static let fallback = "© OpenStreetMap contributors"
    /// Text size in pixels at scale 1.
    static let size = 10.0

    /// Plain text from archive metadata (which often holds links).
    static func text(from metadata: String?) -> String {
        guard let metadata else { return fallback }
        var text = ""
        var inTag = false
        for character in metadata {
            if character == "<" {
                inTag = true
                continue
            }
            if character == ">" && inTag {
                inTag = false
                text.append(" ")
                continue
            }
            if !inTag { text.append(character) }
        }
        let entities = [
            "&copy;": "©", "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&apos;": "'",
            "&nbsp;": " ",
        ]
        for (entity, replacement) in entities { text = text.replacingOccurrences(of: entity, with: replacement) }
        while let range = text.range(of: "&#[0-9]{1,7};", options: .regularExpression) {
            let digits = text[range].dropFirst(2).dropLast()
            let scalar = UInt32(digits).flatMap(Unicode.Scalar.init).map(String.init) ?? ""
            text.replaceSubrange(range, with: scalar)
        }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.isEmpty ? fallback : words
    }

    /// Where the attribution goes and how it looks, for a view and a background colour.
    struct Plate {
        /// Each line's text, its layout, and where its baseline starts.
        let lines: [(text: String, layout: TextLayout, origin: Point)]
        let box: Rect
        let dark: Bool
    }

    /// The smallest text size, pixels at scale 1: below it the text would not be legible.
    static let minimumSize = 8.0

    /// The plate for a text in the bottom-right corner of `area` (the view's when nil), sized
    /// to fit it whole: the text shrinks to the minimum size, then wraps between words onto
    /// more lines. Only a word wider than the picture itself is cut (with "…"), and a picture
    /// too small for any of it gets no plate.
    static func plate(text: String, view: MapView, area: Rect? = nil, background: Color) -> Plate? {
        guard let font = try? Font.dejaVuSans() else { return nil }
        let scale = view.scale
        let margin = 3 * scale
        let padding = 3 * scale
        let area = area ?? Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        let available = area.width - 2 * margin - 2 * padding
        guard available > 20 * scale else { return nil }
        var size = Self.size * scale
        func width(_ line: String) -> Double { (try? TextLayout(text: line, font: font, size: size).width) ?? .infinity }
        while width(text) > available, size > Self.minimumSize * scale { size -= 0.5 * scale }
        var lines: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if let last = lines.last, width(last + " " + word) <= available {
                lines[lines.count - 1] = last + " " + word
            } else {
                var shown = word
                while width(shown) > available, shown.count > 1 { shown = String(shown.dropLast(2)) + "…" }
                lines.append(shown)
            }
        }
        let layouts = lines.compactMap { try? TextLayout(text: $0, font: font, size: size) }
        guard let first = layouts.first, layouts.count == lines.count else { return nil }
        let lineHeight = (first.ascent + first.descent) * 1.1
        let height = lineHeight * Double(layouts.count - 1) + first.ascent + first.descent + 2 * padding
        let width = (layouts.map(\.width).max() ?? 0) + 2 * padding
        guard height + 2 * margin <= area.height else { return nil }
        let box = Rect(x: area.x + area.width - margin - width, y: area.y + area.height - margin - height, width: width, height: height)
        // Lines flush right, as the plate sits in the right-hand corner.
        let placed = layouts.enumerated().map { index, layout in
            (lines[index], layout, Point(box.maxX - padding - layout.width, box.y + padding + first.ascent + lineHeight * Double(index)))
        }
        return Plate(lines: placed, box: box, dark: background.isDark)
    }

    /// Draws a plate: a translucent rounded box and the text in a contrasting colour.
    static func draw(_ plate: Plate, scale: Double, into canvas: inout Canvas) {
        let boxColor = plate.dark ? Color(red: 20, green: 24, blue: 32, alpha: 170) : Color(red: 255, green: 255, blue: 255, alpha: 190)
        let textColor = plate.dark ? Color(red: 214, green: 219, blue: 228) : Color(red: 60, green: 64, blue: 72)
        canvas.fill(
            Path.roundedRectangle(
                x: plate.box.x, y: plate.box.y, width: plate.box.width, height: plate.box.height,
                radius: 3 * scale), color: boxColor)
        // From glyph outlines, like the labels: every pixel is our rasteriser's.
        var text = PolygonSet()
        for (_, layout, origin) in plate.lines {
            guard let outline = try? layout.outline(transform: .translation(x: origin.x, y: origin.y)) else { continue }
            text.addPath(outline, tolerance: 0.2)
        }
        canvas.fill(text, color: textColor)
    }
}

extension Color {
    /// True for colours darker than mid-grey (Rec. 709 luma of the sRGB values); transparent
    /// counts as light.
    var isDark: Bool {
        guard alpha > 0 else { return false }
        let luma = 0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)
        return luma < 128
    }
}
