// Glyph cache: rendered coverage masks keyed by font, size (1/64 px), glyph index and
// subpixel x offset (quarter pixels), shared by every render. Rendering a missing glyph
// happens outside the cache's lock (under the font's own lock), so one slow glyph does not
// block readers of other glyphs.

import Caching

/// A glyph's rendered coverage: `height` rows of `width` bytes, placed `left` px right of
/// the pen and with its top row `top` px above the baseline.
struct GlyphMask: Sendable {
    let width: Int
    let height: Int
    let left: Int
    let top: Int
    let coverage: [UInt8]

    static let empty = GlyphMask(width: 0, height: 0, left: 0, top: 0, coverage: [])
}

/// Rendered glyph masks shared across renders.
final class GlyphCache: Sendable {
    struct Key: Hashable {
        let font: Int
        let size: Int
        let glyph: UInt32
        let subpixel: Int
    }

    /// Subpixel positions per pixel.
    static let subpixelSteps = 4
    /// Masks kept (labels use few glyphs; this bounds memory): the least used go first.
    static let capacity = 4096

    static let shared = GlyphCache()

    private let entries = BoundedCache<Key, GlyphMask>(capacity: capacity)

    /// The mask for a glyph, rendered on first use; FreeType failures are thrown, not cached.
    func mask(font: Font, glyph: UInt32, size: Double, subpixel: Int) throws(RasterError) -> GlyphMask {
        let key = Key(font: font.identifier, size: Int((size * 64).rounded()), glyph: glyph, subpixel: subpixel)
        if let mask = entries.value(forKey: key) { return mask }
        let mask = try font.renderGlyph(glyph, size: size, subpixel: subpixel)
        entries.setValue(mask, forKey: key)
        return mask
    }

    /// How many masks are cached (for tests).
    var count: Int { entries.count }
}
