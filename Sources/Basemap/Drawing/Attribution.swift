// The attribution every basemap picture carries (DESIGN §7): the archive's `attribution`
// metadata with HTML tags removed and entities decoded, else "© OpenStreetMap contributors";
// drawn small in the bottom-right corner on a translucent plate whose colours follow the
// style's background, so it stays legible by day and by night.

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
        let layout: TextLayout
        let box: Rect
        let origin: Point
        let dark: Bool
    }

    /// The plate for a text in the bottom-right corner of `area` (the view's when nil), sized
    /// to fit it (shrunk, then cut with "…", if too wide).
    static func plate(text: String, view: MapView, area: Rect? = nil, background: Color) -> Plate? {
        guard let font = try? Font.dejaVuSans() else { return nil }
        let scale = view.scale
        let margin = 3 * scale
        let padding = 3 * scale
        let area = area ?? Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        let available = area.width - 2 * margin - 2 * padding
        guard available > 20 * scale else { return nil }
        var size = Self.size * scale
        var shown = text
        var layout = try? TextLayout(text: shown, font: font, size: size)
        while let current = layout, current.width > available, size > 8 * scale {
            size -= 0.5 * scale
            layout = try? TextLayout(text: shown, font: font, size: size)
        }
        while let current = layout, current.width > available, shown.count > 1 {
            shown = String(shown.dropLast(2)) + "…"
            layout = try? TextLayout(text: shown, font: font, size: size)
        }
        guard let layout else { return nil }
        let height = layout.ascent + layout.descent + 2 * padding
        let width = layout.width + 2 * padding
        let box = Rect(x: area.x + area.width - margin - width, y: area.y + area.height - margin - height, width: width, height: height)
        let origin = Point(box.x + padding, box.y + padding + layout.ascent)
        return Plate(layout: layout, box: box, origin: origin, dark: background.isDark)
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
        guard let outline = try? plate.layout.outline(transform: .translation(x: plate.origin.x, y: plate.origin.y)) else { return }
        var text = PolygonSet()
        text.addPath(outline, tolerance: 0.2)
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
