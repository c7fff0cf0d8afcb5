import Foundation
import Testing

@testable import Raster

@Suite struct ImageBlitTests {
    /// A 2×2 test image: red, green / blue, half-transparent white.
    func sample() throws -> Image {
        try Image(width: 2, height: 2, straightRGBA: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128])
    }

    /// A whole-pixel translation copies pixels exactly, composited over the canvas.
    @Test func translationCopies() throws {
        var canvas = Canvas(width: 4, height: 4, background: .black)
        canvas.draw(try sample(), transform: .translation(x: 1, y: 2))
        #expect(canvas.pixel(x: 1, y: 2) == PremultipliedColor(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(canvas.pixel(x: 2, y: 3) == PremultipliedColor(red: 128, green: 128, blue: 128, alpha: 255))
        #expect(canvas.pixel(x: 0, y: 0) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
    }

    /// Replacing pixels copies them as they are (a see-through pixel replaces, it does not
    /// blend), at a whole-pixel offset, clipped to the canvas on every side.
    @Test func replacePixelsCopiesWithoutBlending() throws {
        let image = try sample()
        var canvas = Canvas(width: 4, height: 4, background: .black)
        canvas.replacePixels(with: image, x: 1, y: 2)
        #expect(canvas.pixel(x: 1, y: 2) == PremultipliedColor(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(canvas.pixel(x: 2, y: 2) == PremultipliedColor(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(canvas.pixel(x: 2, y: 3) == image.pixel(x: 1, y: 1), "not blended over the black")
        #expect(canvas.pixel(x: 0, y: 2) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
        var clipped = Canvas(width: 2, height: 2, background: .black)
        clipped.replacePixels(with: image, x: -1, y: 1)
        #expect(clipped.pixel(x: 0, y: 1) == PremultipliedColor(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(clipped.pixel(x: 1, y: 1) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(clipped.pixel(x: 0, y: 0) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
        clipped.replacePixels(with: image, x: 5, y: -7)
        #expect(clipped.pixel(x: 0, y: 0) == PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 255))
    }

    /// A 90° rotation puts each source pixel where the transform maps its centre.
    @Test func rotationMapsPixels() throws {
        var canvas = Canvas(width: 4, height: 4)
        // Rotate a quarter turn clockwise about the origin, then move into view.
        canvas.draw(try sample(), transform: Transform.rotation(radians: Double.pi / 2).translatedBy(x: 3, y: 1))
        // Source (0,0) red → x ∈ [2,3], y ∈ [1,2]; source (1,0) green → y ∈ [2,3]; source (0,1) blue → x ∈ [1,2].
        #expect(canvas.pixel(x: 2, y: 1) == PremultipliedColor(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(canvas.pixel(x: 2, y: 2) == PremultipliedColor(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(canvas.pixel(x: 1, y: 1) == PremultipliedColor(red: 0, green: 0, blue: 255, alpha: 255))
    }

    /// Scaling up interpolates between source pixels; outside the image counts as
    /// transparent (Cairo's EXTEND_NONE), which softens the image's own edges.
    @Test func bilinearScaling() throws {
        let black: [UInt8] = [0, 0, 0, 255]
        let white: [UInt8] = [255, 255, 255, 255]
        let strip = try Image(width: 2, height: 2, straightRGBA: black + white + black + white)
        var canvas = Canvas(width: 8, height: 8)
        canvas.draw(strip, transform: .scale(x: 4, y: 4))
        let row = (0..<8).map { canvas.pixel(x: $0, y: 3) }
        // Half a source pixel (2 canvas pixels) fades at each end.
        #expect(row[0].alpha < row[1].alpha && row[1].alpha < 255 && row[7].alpha < 255)
        #expect(row[2...5].allSatisfy { $0.alpha == 255 })
        let reds = row[2...5].map(\.red)
        #expect(reds == [32, 96, 159, 223])
    }

    /// Opacity scales the image; a singular transform draws nothing.
    @Test func opacityAndSingularTransform() throws {
        var canvas = Canvas(width: 2, height: 2)
        canvas.draw(try sample(), opacity: 0.5)
        #expect(canvas.pixel(x: 0, y: 0) == PremultipliedColor(red: 128, green: 0, blue: 0, alpha: 128))
        var untouched = Canvas(width: 2, height: 2)
        untouched.draw(try sample(), transform: .scale(x: 0, y: 1))
        untouched.draw(try sample(), transform: .translation(x: .nan, y: 0))
        untouched.draw(try sample(), transform: .translation(x: -1e300, y: 1e300))
        untouched.draw(try sample(), transform: Transform.scale(x: 1e-300, y: 1e300))
        #expect(untouched.image == Canvas(width: 2, height: 2).image)
    }
}
