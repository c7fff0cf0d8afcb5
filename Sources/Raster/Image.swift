// An immutable premultiplied RGBA8 image: what a canvas produces, what PNG decoding yields
// and what image blits draw. A value type, safe to share between concurrent renders.

/// A premultiplied RGBA8 image, rows top to bottom.
public struct Image: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied pixels packed R, G, B, A in memory order, row-major.
    let pixels: [UInt32]

    init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image from straight (not premultiplied) RGBA bytes, 4 per pixel, row-major.
    package init(width: Int, height: Int, straightRGBA bytes: [UInt8]) throws(RasterError) {
        guard width >= 0, height >= 0, bytes.count == width * height * 4 else {
            throw RasterError(
                code: .invalidArgument,
                message: "expected \(max(0, width * height * 4)) RGBA bytes for \(width)x\(height), got \(bytes.count)")
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        bytes.withUnsafeBufferPointer { source in
            for index in pixels.indices {
                let color = Color(
                    red: source[index * 4], green: source[index * 4 + 1],
                    blue: source[index * 4 + 2], alpha: source[index * 4 + 3])
                pixels[index] = color.premultiplied.packed
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The premultiplied pixel at (x, y); transparent outside the image.
    public func pixel(x: Int, y: Int) -> PremultipliedColor {
        guard x >= 0, y >= 0, x < width, y < height else { return PremultipliedColor(packed: 0) }
        return PremultipliedColor(packed: pixels[y * width + x])
    }

    /// True when every pixel has alpha 255.
    package var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            for pixel in buffer where pixel < 0xFF00_0000 { return false }
            return true
        }
    }

    /// The image as straight RGBA bytes (un-premultiplied, rounded to nearest).
    package var straightRGBA: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: pixels.count * 4)
        for (index, pixel) in pixels.enumerated() {
            let color = PremultipliedColor(packed: pixel).unpremultiplied
            bytes[index * 4] = color.red
            bytes[index * 4 + 1] = color.green
            bytes[index * 4 + 2] = color.blue
            bytes[index * 4 + 3] = color.alpha
        }
        return bytes
    }
}
