import Foundation
import Testing

@testable import Raster

@Suite struct TextTests {
    /// Text draws visible pixels within its measured box.
    @Test func rendersWithinMeasuredBox() throws {
        let font = try Font.dejaVuSans()
        var canvas = Canvas(width: 120, height: 40, background: .white)
        let layout = try canvas.drawText("4 min", font: font, size: 20, at: Point(10, 28), color: .black)
        var inked = 0
        for y in 0..<40 {
            for x in 0..<120 where canvas.pixel(x: x, y: y) != Color.white.premultiplied {
                inked += 1
                #expect(Double(x) >= 9 && Double(x) <= 10 + layout.width + 1, "ink at \(x),\(y)")
                #expect(Double(y) >= 28 - layout.ascent - 1 && Double(y) <= 28 + layout.descent + 1, "ink at \(x),\(y)")
            }
        }
        #expect(inked > 100)
        #expect(layout.width > 40 && layout.width < 60)
        #expect(abs(layout.ascent - 20 * 1901 / 2048) < 1e-9)
        #expect(abs(layout.descent - 20 * 483 / 2048) < 1e-9)
    }

    /// The advance equals the sum of glyph advances, and the "AV" kerning pair draws them closer.
    @Test func advanceAndKerning() throws {
        let font = try Font.dejaVuSans()
        let a = try TextLayout(text: "A", font: font, size: 32).width
        let v = try TextLayout(text: "V", font: font, size: 32).width
        let pair = try TextLayout(text: "AV", font: font, size: 32).width
        #expect(abs(a - 1401.0 * 32 / 2048) < 1e-9)
        #expect(pair < a + v - 1)
        let plain = try TextLayout(text: "AB", font: font, size: 32).width
        let b = try TextLayout(text: "B", font: font, size: 32).width
        #expect(abs(plain - (a + b)) < 1e-9)
    }

    /// Glyph masks are cached per font, size, glyph and quarter-pixel offset, and reused.
    @Test func glyphCacheKeysAndReuse() throws {
        let font = try Font.dejaVuSans()
        let cache = GlyphCache()
        let glyph = font.glyphIndices(for: ["g"])[0]
        let base = try cache.mask(font: font, glyph: glyph, size: 23, subpixel: 0)
        #expect(cache.count == 1)
        _ = try cache.mask(font: font, glyph: glyph, size: 23, subpixel: 0)
        #expect(cache.count == 1)
        let shifted = try cache.mask(font: font, glyph: glyph, size: 23, subpixel: 2)
        let larger = try cache.mask(font: font, glyph: glyph, size: 24, subpixel: 0)
        let bold = try cache.mask(font: Font.dejaVuSans(bold: true), glyph: glyph, size: 23, subpixel: 0)
        #expect(cache.count == 4)
        #expect(base.coverage != shifted.coverage)
        #expect(base.coverage != larger.coverage)
        #expect(base.coverage != bold.coverage)
        #expect(base.top > 0 && base.height > base.top, "g descends below the baseline")
        // A glyph the font does not have is a FreeType error, thrown and not cached.
        do {
            _ = try cache.mask(font: font, glyph: 999_999, size: 23, subpixel: 0)
            Issue.record("rendered a glyph the font does not have")
        } catch {
            #expect(error.code == .font)
            #expect(error.message.contains("FreeType error") && error.message.contains("DejaVuSans.ttf"))
        }
        #expect(cache.count == 4)
    }

    /// A missing font file is a RasterError naming the path.
    @Test func missingFontIsAnError() {
        do {
            _ = try Font(path: "/nonexistent/font.ttf")
            Issue.record("loaded a missing font")
        } catch {
            #expect(error.code == .font)
            #expect(error.message.contains("/nonexistent/font.ttf"))
        }
        #expect(throws: RasterError.self) { try Font(path: "/etc/hostname") }
    }

    /// Concurrent renders with one shared font produce identical pixels.
    @Test func concurrentRendersAgree() async throws {
        let font = try Font.dejaVuSans(bold: true)
        let images = try await withThrowingTaskGroup(of: Image.self) { group in
            for index in 0..<8 {
                group.addTask {
                    var canvas = Canvas(width: 160, height: 40, background: .black)
                    try canvas.drawText("12 min · \(index % 2)", font: font, size: 17.5, at: Point(4.3, 28), color: .white)
                    return canvas.image
                }
            }
            var images: [Image] = []
            for try await image in group { images.append(image) }
            return images
        }
        let reference = images[0]
        #expect(images.filter { $0 == reference }.count == 4)
        #expect(Set(images).count == 2)
    }

    /// Empty text, zero or NaN sizes and far-away origins draw nothing and do not crash.
    @Test func degenerateInputDrawsNothing() throws {
        let font = try Font.dejaVuSans()
        var canvas = Canvas(width: 20, height: 20, background: .white)
        try canvas.drawText("", font: font, size: 12, at: Point(2, 10), color: .black)
        try canvas.drawText("x", font: font, size: .nan, at: Point(2, 10), color: .black)
        try canvas.drawText("x", font: font, size: 0, at: Point(2, 10), color: .black)
        try canvas.drawText("x", font: font, size: 12, at: Point(.infinity, 10), color: .black)
        try canvas.drawText("x", font: font, size: 12, at: Point(-1e12, 1e12), color: .black)
        #expect(canvas.image == Canvas(width: 20, height: 20, background: .white).image)
    }
}
