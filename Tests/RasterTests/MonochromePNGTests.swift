import Raster
import Testing

@Suite struct MonochromePNGTests {
    /// The file is a true 1-bit greyscale PNG (IHDR bit depth 1, colour type 0) that decodes
    /// to the thresholded pixels: dark and mid-dark black, light white, transparent white.
    @Test func oneBitGreyscale() throws {
        let width = 13
        let height = 5
        var canvas = Canvas(width: width, height: height, background: .white)
        canvas.fill(.rectangle(x: 0, y: 0, width: 3, height: 5), color: .black)
        canvas.fill(.rectangle(x: 3, y: 0, width: 2, height: 5), color: Color(red: 127, green: 127, blue: 127))
        canvas.fill(.rectangle(x: 5, y: 0, width: 2, height: 5), color: Color(red: 128, green: 128, blue: 128))
        canvas.fill(.rectangle(x: 7, y: 0, width: 2, height: 5), color: Color(red: 255, green: 0, blue: 0))
        canvas.fill(.rectangle(x: 9, y: 0, width: 2, height: 5), color: Color(red: 0, green: 255, blue: 0))
        var transparent = Canvas(width: width, height: height)
        transparent.fill(.rectangle(x: 0, y: 0, width: 6, height: 5), color: .black)

        let png = try PNGCodec.encodeMonochrome(canvas.image)
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(png[24] == 1, "bit depth 1")
        #expect(png[25] == 0, "greyscale")
        let decoded = try PNGCodec.decode(png)
        #expect(decoded.width == width && decoded.height == height)
        // black, 127 grey (black), 128 grey (white), red (luminance 54: black), green (182: white), white.
        let expected: [UInt8] = [0, 0, 0, 0, 0, 255, 255, 0, 0, 255, 255, 255, 255]
        for y in 0..<height {
            #expect((0..<width).map { decoded.pixel(x: $0, y: y).red } == expected, "row \(y)")
        }
        let clear = try PNGCodec.decode(PNGCodec.encodeMonochrome(transparent.image))
        #expect(clear.pixel(x: 2, y: 2).red == 0 && clear.pixel(x: 8, y: 2).red == 255, "transparent reads as white")
    }

    /// A 128×64 frame is a few hundred bytes, far under its 8-bit encoding.
    @Test func smallFrame() throws {
        var canvas = Canvas(width: 128, height: 64, background: .white)
        canvas.fill(.circle(center: Point(64, 32), radius: 20), color: .black)
        let mono = try PNGCodec.encodeMonochrome(canvas.image)
        let full = try PNGCodec.encode(canvas.image)
        #expect(mono.count < full.count)
        #expect(mono.count < 400)
        #expect(throws: RasterError.self) { try PNGCodec.encodeMonochrome(Canvas(width: 0, height: 4).image) }
    }
}
