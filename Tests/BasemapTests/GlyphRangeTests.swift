import Testing

@testable import Basemap

/// Glyph ranges for MapLibre clients, read back with the vector tile decoder's protobuf reader.
@Suite struct GlyphRangeTests {
    struct Glyph {
        var id = 0, width = 0, height = 0, left = 0, top = 0, advance = 0
        var bitmap: [UInt8] = []
    }

    static func decode(_ bytes: [UInt8]) throws -> (name: String, range: String, glyphs: [Int: Glyph]) {
        var root = ProtobufReader(bytes)
        var result = (name: "", range: "", glyphs: [Int: Glyph]())
        while !root.isAtEnd {
            let (field, wire) = try root.fieldKey()
            guard field == 1 else {
                try root.skip(wire)
                continue
            }
            var stack = try root.message()
            while !stack.isAtEnd {
                let (field, wire) = try stack.fieldKey()
                switch field {
                case 1: result.name = try stack.string()
                case 2: result.range = try stack.string()
                case 3:
                    var message = try stack.message()
                    var glyph = Glyph()
                    while !message.isAtEnd {
                        let (field, wire) = try message.fieldKey()
                        switch field {
                        case 2: glyph.bitmap = Array(bytes[try message.lengthDelimited()])
                        case 5, 6:
                            let raw = try message.varint()
                            let value = Int(raw >> 1) ^ -Int(raw & 1)
                            if field == 5 { glyph.left = value } else { glyph.top = value }
                        case 1, 3, 4, 7:
                            let value = Int(try message.varint())
                            switch field {
                            case 1: glyph.id = value
                            case 3: glyph.width = value
                            case 4: glyph.height = value
                            default: glyph.advance = value
                            }
                        default: try message.skip(wire)
                        }
                    }
                    result.glyphs[glyph.id] = glyph
                default: try stack.skip(wire)
                }
            }
        }
        return result
    }

    /// "A": a signed distance field around its box, 192 on the outline, high inside, 0 far
    /// outside; metrics in pixels of a 24-pixel em above the baseline.
    @Test func letterA() throws {
        let pbf = try #require(GlyphRange.pbf(fontStack: "Noto Sans Regular", first: 0))
        let range = try Self.decode(pbf)
        #expect(range.name == "Noto Sans Regular")
        #expect(range.range == "0-255")
        let a = try #require(range.glyphs[65])
        // DejaVu Sans' "A" at 24 px: about 16 px wide, 17-18 px tall, standing on the baseline.
        #expect((15...18).contains(a.width) && (17...19).contains(a.height) && (15...18).contains(a.advance), "\(a)")
        #expect(a.top == a.height && (-1...1).contains(a.left), "\(a)")
        #expect(a.bitmap.count == (a.width + 6) * (a.height + 6))
        let columns = a.width + 6
        #expect(a.bitmap[0] == 0, "far outside: 0")
        // The middle of the crossbar's left end is inside the letter; the space under the apex is not.
        let values = a.bitmap.filter { $0 >= 192 }
        #expect(!values.isEmpty && values.count < a.bitmap.count / 2)
        #expect(a.bitmap[(a.height + 6) / 2 * columns + columns / 2] < 192, "the counter of the A is outside")
    }

    /// Spaces advance without a bitmap; control characters and code points the font lacks are
    /// left out; bold stacks get the bold face (wider strokes: more pixels inside).
    @Test func blanksMissingAndWeights() throws {
        let latin = try Self.decode(try #require(GlyphRange.pbf(fontStack: "Noto Sans Regular,Arial Unicode MS Regular", first: 0)))
        let space = try #require(latin.glyphs[32])
        #expect(space.advance > 0 && space.bitmap.isEmpty && space.width == 0)
        #expect(latin.glyphs[10] == nil && latin.glyphs[0] == nil)
        let bold = try Self.decode(try #require(GlyphRange.pbf(fontStack: "Noto Sans Bold", first: 0)))
        let inside = { (glyph: Glyph) in glyph.bitmap.filter { $0 >= 192 }.count }
        #expect(inside(try #require(bold.glyphs[73])) > inside(try #require(latin.glyphs[73])), "a bold I is thicker")
        // A range of the private use area: nothing to draw.
        #expect(try Self.decode(try #require(GlyphRange.pbf(fontStack: "Noto Sans Regular", first: 0xE000))).glyphs.isEmpty)
        #expect(GlyphRange.pbf(fontStack: "Noto Sans Regular", first: 100) == nil)
        #expect(GlyphRange.pbf(fontStack: "Noto Sans Regular", first: 65_536) == nil)
    }
}
