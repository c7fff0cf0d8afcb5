// Text layout: a single line of text shaped the simple way (one glyph per Unicode scalar,
// the font's cmap), with advances and 'kern' table pairs scaled exactly from font units.
// Contract: `width` is the advance width including kerning, `ascent`/`descent` come from
// the font at that size, so callers can size a badge before drawing.

/// A laid-out line of text: glyphs with their pen offsets from the origin.
public struct TextLayout: Sendable {
    /// One glyph and its pen position, in pixels right of the line's origin.
    struct Glyph: Sendable {
        let index: UInt32
        let x: Double
        /// The advance to the next glyph, kerning included.
        var advance: Double
    }

    /// The font used.
    public let font: Font
    /// Size in pixels (the em size).
    public let size: Double
    /// Total advance width in pixels, kerning included.
    public let width: Double
    /// Height above the baseline (positive).
    package let ascent: Double
    /// Depth below the baseline (positive).
    package let descent: Double
    let glyphs: [Glyph]

    /// Lays out `text` in `font` at `size` pixels; non-finite or negative sizes lay out
    /// empty. Throws when FreeType fails to read the font's metrics.
    public init(text: String, font: Font, size: Double) throws(RasterError) {
        self.font = font
        let size = size.isFinite && size > 0 ? min(size, 1000) : 0
        self.size = size
        ascent = font.ascent(size: size)
        descent = font.descent(size: size)
        let scalars = Array(text.unicodeScalars)
        let indices = font.glyphIndices(for: scalars)
        let advances = try font.advances(for: indices)
        let kerning = try font.kerning(for: indices)
        let scale = size / Double(font.unitsPerEm)
        var pen = 0
        var glyphs: [Glyph] = []
        glyphs.reserveCapacity(indices.count)
        for (position, index) in indices.enumerated() {
            if position > 0 && position - 1 < kerning.count { pen += kerning[position - 1] }
            if position > 0 { glyphs[position - 1].advance = Double(pen) * scale - glyphs[position - 1].x }
            glyphs.append(Glyph(index: index, x: Double(pen) * scale, advance: 0))
            pen += position < advances.count ? advances[position] : 0
        }
        if let last = glyphs.indices.last { glyphs[last].advance = Double(pen) * scale - glyphs[last].x }
        self.glyphs = glyphs
        width = Double(pen) * scale
    }
}

extension Canvas {
    /// Draws a laid-out line with its origin (left end of the baseline) at `origin`. The
    /// baseline snaps to whole pixels; x keeps quarter-pixel precision. Throws when
    /// FreeType fails to render a glyph (glyphs drawn before it stay drawn).
    public mutating func draw(_ layout: TextLayout, at origin: Point, color: Color, opacity: Double = 1) throws(RasterError) {
        let alpha = alphaByte(opacity)
        guard origin.isFinite, layout.size > 0, color.alpha != 0, alpha != 0, width > 0, height > 0 else { return }
        guard abs(origin.x) < 1e9, abs(origin.y) < 1e9 else { return }
        let baseline = Int(origin.y.rounded())
        let steps = GlyphCache.subpixelSteps
        let canvasWidth = width
        let canvasHeight = height
        // Render (or fetch) every mask first, so no error is thrown while pixels are borrowed.
        var placed: [(mask: GlyphMask, x: Int)] = []
        placed.reserveCapacity(layout.glyphs.count)
        for glyph in layout.glyphs {
            let penX = origin.x + glyph.x
            var whole = Int(penX.rounded(.down))
            var subpixel = Int(((penX - Double(whole)) * Double(steps)).rounded())
            if subpixel == steps {
                whole += 1
                subpixel = 0
            }
            let mask = try GlyphCache.shared.mask(font: layout.font, glyph: glyph.index, size: layout.size, subpixel: subpixel)
            placed.append((mask, whole))
        }
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var blitter = SolidBlitter(pixels: base, stride: canvasWidth, color: color.source(opacity: opacity), globalAlpha: 255)
            for (mask, whole) in placed {
                let left = whole + mask.left
                let top = baseline - mask.top
                let firstColumn = max(0, -left)
                let lastColumn = min(mask.width, canvasWidth - left)
                guard firstColumn < lastColumn else { continue }
                mask.coverage.withUnsafeBufferPointer { coverage in
                    guard let coverageBase = coverage.baseAddress else { return }
                    for row in 0..<mask.height {
                        let y = top + row
                        if y < 0 || y >= canvasHeight { continue }
                        blitter.blitRow(
                            y: y, x: left + firstColumn,
                            alphas: coverageBase + row * mask.width + firstColumn,
                            count: lastColumn - firstColumn)
                    }
                }
            }
        }
    }

    /// Lays out and draws one line of text; returns its layout (for measuring).
    @discardableResult
    public mutating func drawText(
        _ text: String, font: Font, size: Double, at origin: Point,
        color: Color, opacity: Double = 1
    ) throws(RasterError) -> TextLayout {
        let layout = try TextLayout(text: text, font: font, size: size)
        try draw(layout, at: origin, color: color, opacity: opacity)
        return layout
    }
}
