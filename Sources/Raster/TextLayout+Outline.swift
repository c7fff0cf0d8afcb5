// Text as outlines: each glyph's contours scaled to the layout's size, so text can be placed
// glyph by glyph (along a curve, rotated) and stroked for a halo. Coordinates are pixels
// with the glyph's pen position on the baseline at the origin, y down, as everywhere else.

extension TextLayout {
    /// The number of glyphs (one per Unicode scalar).
    package var glyphCount: Int { glyphs.count }

    /// The pen position of glyph `index`, in pixels right of the line's origin.
    package func glyphOffset(_ index: Int) -> Double { glyphs[index].x }

    /// The advance of glyph `index` to the next one, in pixels (kerning included).
    package func glyphAdvance(_ index: Int) -> Double { glyphs[index].advance }

    /// Appends glyph `index`'s outline, mapped by `transform` from glyph space (pen position
    /// at the origin, baseline along +x, y down, pixels) to the target space.
    package func appendGlyphOutline(_ index: Int, transform: Transform, to path: inout Path) throws(RasterError) {
        let elements = try font.outline(glyphs[index].index)
        guard !elements.isEmpty else { return }
        let scale = size / Double(font.unitsPerEm)
        // Font units (y up) → glyph space (y down) → target.
        let map = Transform(a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: 0).concatenating(transform)
        path.append(Path(elements: elements).applying(map))
    }

    /// Reads every glyph's outline (kept by the font), so that `appendGlyphOutline` does not
    /// fail later. Throws when FreeType cannot load one.
    package func loadOutlines() throws(RasterError) {
        for glyph in glyphs { _ = try font.outline(glyph.index) }
    }

    /// The whole line's outline, its origin (left end of the baseline) mapped by `transform`.
    package func outline(transform: Transform = .identity) throws(RasterError) -> Path {
        var path = Path()
        for index in glyphs.indices {
            try appendGlyphOutline(
                index, transform: Transform.translation(x: glyphs[index].x, y: 0).concatenating(transform),
                to: &path)
        }
        return path
    }
}
