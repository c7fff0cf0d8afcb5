import Foundation
import Testing

@testable import Raster

@Suite struct ColorTests {
    /// #RRGGBB and #RRGGBBAA parse in either case and format back in canonical form.
    @Test func hexParsingAndFormatting() {
        #expect(Color(hex: "#4285f4") == Color(red: 0x42, green: 0x85, blue: 0xF4))
        #expect(Color(hex: "#4285F480") == Color(red: 0x42, green: 0x85, blue: 0xF4, alpha: 0x80))
        #expect(Color(red: 0x42, green: 0x85, blue: 0xF4).hex == "#4285F4")
        #expect(Color(red: 1, green: 2, blue: 3, alpha: 4).hex == "#01020304")
        for bad in ["4285F4", "#4285F", "#4285F4F", "#GG0000", "", "#", "#4285F4800"] {
            #expect(Color(hex: bad) == nil, "\(bad)")
        }
    }

    /// Colours decode from and encode to JSON strings; bad strings are rejected with the value named.
    @Test func codable() throws {
        let data = try JSONEncoder().encode([Color(red: 255, green: 0, blue: 0, alpha: 128)])
        #expect(String(decoding: data, as: UTF8.self) == ##"["#FF000080"]"##)
        #expect(try JSONDecoder().decode([Color].self, from: data) == [Color(red: 255, green: 0, blue: 0, alpha: 128)])
        do {
            _ = try JSONDecoder().decode([Color].self, from: Data(#"["red"]"#.utf8))
            Issue.record("expected a decoding error")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("red"))
        }
    }

    /// Premultiplication rounds to nearest and un-premultiplication inverts it.
    @Test func premultiplication() {
        let color = Color(red: 255, green: 128, blue: 1, alpha: 128)
        #expect(color.premultiplied == PremultipliedColor(red: 128, green: 64, blue: 1, alpha: 128))
        for alpha in stride(from: 1, through: 255, by: 7) {
            for value in stride(from: 0, through: 255, by: 5) {
                let straight = Color(red: UInt8(value), green: 0, blue: 0, alpha: UInt8(alpha))
                let back = straight.premultiplied.unpremultiplied.premultiplied
                #expect(back == straight.premultiplied)
            }
        }
        #expect(PremultipliedColor(red: 9, green: 9, blue: 9, alpha: 0).unpremultiplied == .transparent)
    }
}

@Suite struct CompositorTests {
    /// 50% red over opaque blue is (128, 0, 127) opaque, as Cairo computes it.
    @Test func halfRedOverBlue() {
        var canvas = Canvas(width: 2, height: 2, background: Color(red: 0, green: 0, blue: 255))
        canvas.fill(.rectangle(x: 0, y: 0, width: 2, height: 2), color: Color(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(canvas.pixel(x: 1, y: 1) == PremultipliedColor(red: 128, green: 0, blue: 127, alpha: 255))
    }

    /// Source-over on a transparent canvas keeps premultiplied values; global alpha scales them.
    @Test func overTransparentAndGlobalAlpha() {
        var canvas = Canvas(width: 1, height: 1)
        canvas.fill(.rectangle(x: 0, y: 0, width: 1, height: 1), color: Color(red: 200, green: 100, blue: 50), opacity: 0.5)
        #expect(canvas.pixel(x: 0, y: 0) == PremultipliedColor(red: 100, green: 50, blue: 25, alpha: 128))
        canvas.fill(.rectangle(x: 0, y: 0, width: 1, height: 1), color: Color(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(canvas.pixel(x: 0, y: 0) == PremultipliedColor(red: 100, green: 50, blue: 25, alpha: 128))
    }

    /// The packed two-lane product equals round(a·b/255) for every pair.
    @Test func scaleIsExactlyRounded() {
        for value in 0...255 {
            for alpha in 0...255 {
                let packed = UInt32(value) * 0x0101_0101
                let expected = UInt32((Double(value * alpha) / 255).rounded())
                #expect(Compositor.scale(packed, UInt8(alpha)) == expected * 0x0101_0101)
            }
        }
    }

    /// The opaque full-coverage fast path gives the same pixels as blending.
    @Test func opaqueFastPathMatchesBlending() {
        let path = Path.circle(center: Point(10, 10), radius: 7)
        var fast = Canvas(width: 20, height: 20, background: .white)
        fast.fill(path, color: Color(red: 66, green: 133, blue: 244))
        var slow = Canvas(width: 20, height: 20, background: .white)
        // Opacity just below 1 disables the fast path; alpha 255 · 255/255 keeps full strength.
        slow.fill(path, color: Color(red: 66, green: 133, blue: 244), opacity: 0.9999)
        #expect(fast.image == slow.image)
    }
}
