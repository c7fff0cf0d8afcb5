// Drawing in points on a canvas in device pixels: every call multiplies by the scale, text is
// laid out at the scaled size, and the boxes text may shade are recorded, because goldens
// compare exactly everywhere but inside them (FreeType decides those pixels, not us).

import Raster

/// A canvas with a points-to-pixels scale and a record of where text was drawn.
struct ScreenPainter {
    var canvas: Canvas
    let scale: Double
    /// Device-pixel boxes of every text drawn (with two pixels of margin).
    private(set) var textBoxes: [Rect] = []

    init(canvas: Canvas, scale: Double) {
        self.canvas = canvas
        self.scale = scale
    }

    var pointTransform: Transform { .scale(x: scale, y: scale) }

    mutating func fill(_ path: Path, _ color: Color, transform: Transform = .identity, rule: FillRule = .nonZero) {
        canvas.fill(path, color: color, rule: rule, transform: transform.concatenating(pointTransform))
    }

    mutating func stroke(_ path: Path, _ color: Color, width: Double, cap: LineCap = .round, transform: Transform = .identity) {
        canvas.stroke(
            path, style: StrokeStyle(width: width, cap: cap, join: .round), color: color,
            transform: transform.concatenating(pointTransform))
    }

    mutating func fill(_ rect: Rect, _ color: Color, radius: Double = 0) {
        fill(.roundedRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height, radius: radius), color)
    }

    /// Lays out `text` at `size` points.
    func layout(_ text: String, size: Double, bold: Bool = false) throws(RasterError) -> TextLayout {
        try TextLayout(text: text, font: Font.dejaVuSans(bold: bold), size: size * scale)
    }

    /// Width of laid-out text in points.
    func width(_ layout: TextLayout) -> Double { layout.width / scale }

    /// Draws laid-out text with its baseline's left end at `x`, `baseline` (points).
    mutating func draw(_ layout: TextLayout, x: Double, baseline: Double, color: Color) throws(RasterError) {
        let origin = Point(x * scale, baseline * scale)
        try canvas.draw(layout, at: origin, color: color)
        textBoxes.append(
            Rect(
                x: origin.x - 2, y: origin.y - layout.ascent - 2,
                width: layout.width + 4, height: layout.ascent + layout.descent + 4))
    }

    /// Lays out and draws text; returns its width in points.
    @discardableResult
    mutating func text(
        _ text: String, x: Double, baseline: Double, size: Double, bold: Bool = false,
        color: Color
    ) throws(RasterError) -> Double {
        let laid = try layout(text, size: size, bold: bold)
        try draw(laid, x: x, baseline: baseline, color: color)
        return width(laid)
    }

    /// `text` at `size` points shrunk (down to `minimumSize`) and then cut short with "…"
    /// until it fits `maximumWidth` points.
    func fitted(
        _ text: String, size: Double, minimumSize: Double, maximumWidth: Double,
        bold: Bool = false
    ) throws(RasterError) -> TextLayout {
        var current = size
        var laid = try layout(text, size: current, bold: bold)
        while width(laid) > maximumWidth, current > minimumSize {
            current = max(minimumSize, current - 1)
            laid = try layout(text, size: current, bold: bold)
        }
        var characters = Array(text)
        while width(laid) > maximumWidth, characters.count > 1 {
            characters.removeLast()
            while characters.last == " " { characters.removeLast() }
            laid = try layout(String(characters) + "…", size: current, bold: bold)
        }
        return laid
    }

    /// `text` on one line at `size` points when it fits, else on two lines at `twoLineSize`
    /// (broken between words, the second cut short with "…" if it must be).
    func wrapped(_ text: String, size: Double, twoLineSize: Double, maximumWidth: Double) throws(RasterError) -> [TextLayout] {
        let single = try layout(text, size: size)
        if width(single) <= maximumWidth { return [single] }
        let words = text.split(separator: " ").map(String.init)
        var first = ""
        var used = 0
        for word in words {
            let candidate = first.isEmpty ? word : first + " " + word
            if !first.isEmpty, width(try layout(candidate, size: twoLineSize)) > maximumWidth { break }
            first = candidate
            used += 1
        }
        guard used < words.count else { return [try fitted(text, size: twoLineSize, minimumSize: twoLineSize, maximumWidth: maximumWidth)] }
        let rest = words[used...].joined(separator: " ")
        return [
            try fitted(first, size: twoLineSize, minimumSize: twoLineSize, maximumWidth: maximumWidth),
            try fitted(rest, size: twoLineSize, minimumSize: twoLineSize, maximumWidth: maximumWidth),
        ]
    }

    /// Draws a maneuver glyph into the square of `side` points at `x`, `y`.
    mutating func glyph(_ glyph: Glyph, x: Double, y: Double, side: Double, primary: Color, secondary: Color) {
        let unit = side / Glyph.side * scale
        let transform = Transform.scale(x: unit, y: unit).translatedBy(x: x * scale, y: y * scale)
        glyph.draw(on: &canvas, transform: transform, primary: primary, secondary: secondary)
    }

    /// Draws a vector icon of its own size times `size` points / its width, its top-left
    /// corner at `x`, `y`, turned by `radians` about its `anchor` (icon units).
    mutating func icon(_ icon: VectorIcon, at point: Point, anchor: Point, width: Double, radians: Double = 0) {
        let unit = width / icon.width * scale
        let transform = Transform.translation(x: -anchor.x, y: -anchor.y)
            .scaledBy(x: unit, y: unit).rotatedBy(radians: radians).translatedBy(x: point.x * scale, y: point.y * scale)
        for operation in icon.operations(transform: transform) {
            switch operation {
            case .fill(let fill):
                canvas.fill(fill.path, color: fill.color, rule: fill.rule, transform: fill.transform ?? .identity)
            case .stroke(let stroke):
                canvas.stroke(stroke.path, style: stroke.style, color: stroke.color, transform: stroke.transform ?? .identity)
            default:
                break
            }
        }
    }
}
