import Foundation
import TestKit
import Testing

@testable import Raster

@Suite struct PNGCodecTests {
    /// The PNG colour type byte of IHDR.
    func colorType(_ png: [UInt8]) -> UInt8 { png[25] }

    /// An opaque image encodes as RGB and decodes to the same pixels.
    @Test func opaqueRoundTripIsRGB() throws {
        var canvas = Canvas(width: 32, height: 20, background: Color(red: 232, green: 234, blue: 237))
        canvas.stroke(polyline: [Point(2, 2), Point(30, 18)], style: StrokeStyle(width: 4), color: Color(red: 66, green: 133, blue: 244))
        for options in [PNGEncodingOptions.default, .libpngDefault, .init(filter: .paeth, compressionLevel: 9, strategy: .rle)] {
            let png = try PNGCodec.encode(canvas.image, options: options)
            #expect(colorType(png) == 2)
            #expect(try PNGCodec.decode(png) == canvas.image)
        }
    }

    /// A translucent image encodes as RGBA, un-premultiplied, and round-trips exactly.
    @Test func translucentRoundTripIsRGBA() throws {
        var canvas = Canvas(width: 16, height: 16)
        canvas.fill(.circle(center: Point(8, 8), radius: 6), color: Color(red: 217, green: 48, blue: 37, alpha: 180))
        canvas.fill(.rectangle(x: 2, y: 2, width: 6, height: 6), color: Color(red: 10, green: 200, blue: 90, alpha: 77))
        let png = try PNGCodec.encode(canvas.image)
        #expect(colorType(png) == 6)
        #expect(try PNGCodec.decode(png) == canvas.image)
        // Straight values on disk: a 50% red pixel is stored as pure red with alpha 128.
        var half = Canvas(width: 1, height: 1)
        half.fill(.rectangle(x: 0, y: 0, width: 1, height: 1), color: Color(red: 255, green: 0, blue: 0, alpha: 128))
        let decoded = try PNGCodec.decode(PNGCodec.encode(half.image))
        #expect(decoded.pixel(x: 0, y: 0).unpremultiplied == Color(red: 255, green: 0, blue: 0, alpha: 128))
    }

    /// Grey, palette with transparency, 16-bit and grey+alpha PNGs decode to premultiplied RGBA.
    @Test func decodesOtherColourTypes() throws {
        func decode(_ base64: String) throws -> Image { try PNGCodec.decode(Array(Data(base64Encoded: base64) ?? Data())) }
        let gray = try decode("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGNg+A8AAQIBAEK+vGgAAAAASUVORK5CYII=")
        #expect(gray.pixel(x: 0, y: 0) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(gray.pixel(x: 1, y: 0) == PremultipliedColor(red: 255, green: 255, blue: 255, alpha: 255))
        let palette = try decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAMAAADD/I+4AAAABlBMVEX/AAAAAP9sof2OAAAAAnRSTlP/gAgPs2oAAAALSURBVHicY2BgBAAABAACv3o/SgAAAABJRU5ErkJggg=="
        )
        #expect(palette.pixel(x: 0, y: 0) == PremultipliedColor(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(palette.pixel(x: 1, y: 0) == PremultipliedColor(red: 0, green: 0, blue: 128, alpha: 128))
        let wide = try decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABEAYAAABPhRjKAAAAEUlEQVR4nGP4/7+hgYHh/38AF3cE/YhI4ZIAAAAASUVORK5CYII=")
        #expect(wide.pixel(x: 0, y: 0) == PremultipliedColor(red: 255, green: 128, blue: 0, alpha: 255))
        let grayAlpha = try decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR4nGM4kQIAAfcBLZAdo70AAAAASUVORK5CYII=")
        #expect(grayAlpha.pixel(x: 0, y: 0) == Color(red: 200, green: 200, blue: 200, alpha: 100).premultiplied)
    }

    /// Data that is not a PNG is rejected as such.
    @Test func rejectsNonPNG() {
        #expect(throws: RasterError.self) { try PNGCodec.decode([]) }
        do {
            _ = try PNGCodec.decode(Array("GIF89a, certainly not a PNG".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .notPNG)
            #expect(error.message.contains("not a PNG"))
        }
    }

    /// A truncated file is rejected with a message saying so.
    @Test func rejectsTruncated() throws {
        let png = try PNGCodec.encode(Canvas(width: 64, height: 64, background: .white).image)
        for length in [9, 20, 40, png.count / 2, png.count - 13] {
            do {
                _ = try PNGCodec.decode(Array(png.prefix(length)))
                Issue.record("accepted \(length) of \(png.count) bytes")
            } catch {
                #expect(error.code == .truncated || error.code == .corruptPNG, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    /// Corrupted bytes (a bad CRC, bad compressed data) are rejected, never crash.
    @Test func rejectsCorrupt() throws {
        var canvas = Canvas(width: 40, height: 40, background: .white)
        canvas.fill(.circle(center: Point(20, 20), radius: 15), color: .black)
        let png = try PNGCodec.encode(canvas.image)
        var generator = SplitMix64(seed: 7)
        var rejected = 0
        for _ in 0..<200 {
            var damaged = png
            let index = Int.random(in: 8..<damaged.count, using: &generator)
            damaged[index] ^= UInt8.random(in: 1...255, using: &generator)
            do {
                _ = try PNGCodec.decode(damaged)
            } catch {
                rejected += 1
                #expect(error.code != .outOfMemory)
            }
        }
        // Every chunk has a CRC: any flipped byte outside ancillary chunks is caught.
        #expect(rejected == 200)
    }

    /// An image over the dimension or pixel limits is rejected before decoding its pixels.
    @Test func rejectsHuge() throws {
        let huge = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAE4gAABOICAIAAADS+hCcAAAAAElFTkSuQmCC") ?? Data())
        do {
            _ = try PNGCodec.decode(huge)
            Issue.record("accepted a 5000x5000 PNG")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("5000x5000") && error.message.contains("limit"), "\(error.message)")
        }
        let png = try PNGCodec.encode(Canvas(width: 100, height: 100, background: .white).image)
        do {
            _ = try PNGCodec.decode(png, limits: PNGDecodingLimits(maximumDimension: 4096, maximumPixels: 9_999))
            Issue.record("accepted 10,000 pixels over a 9,999 limit")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("100x100"))
        }
    }

    /// Encoding an empty image is an error, not a crash.
    @Test func rejectsEmptyImage() {
        #expect(throws: RasterError.self) { try PNGCodec.encode(Canvas(width: 0, height: 10).image) }
    }
}
