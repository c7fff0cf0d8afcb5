// Drawing images as map tiles. Contract: only pixels whose centre lies inside the clip
// polygon are touched, and bilinear samples past the image's edge repeat its edge pixels
// (Cairo's EXTEND_PAD), so tiles clipped to squares that share edges cover every pixel
// exactly once: no seams, no double blending, whatever the scale and rotation.

extension Canvas {
    /// Draws an image mapped by `transform`, limited to the pixels whose centres lie in `clip`.
    package mutating func drawTile(_ image: Image, transform: Transform, clip: ConvexClip, opacity: Double = 1) {
        let alpha = alphaByte(opacity)
        guard alpha != 0, image.width > 0, image.height > 0, width > 0, height > 0, !clip.isEmpty,
            let inverse = transform.inverted()
        else { return }
        let xs = clip.corners.map(\.x)
        let ys = clip.corners.map(\.y)
        func clamped(_ value: Double) -> Int { Int(min(max(value, -1), 1e9)) }
        let minX = max(0, clamped((xs.min() ?? 0).rounded(.down)))
        let maxX = min(width, clamped((xs.max() ?? 0).rounded(.up)))
        let minY = max(0, clamped((ys.min() ?? 0).rounded(.down)))
        let maxY = min(height, clamped((ys.max() ?? 0).rounded(.up)))
        guard minX < maxX, minY < maxY else { return }
        let stride = width
        let imageWidth = image.width
        let imageHeight = image.height
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in minY..<maxY {
                    for x in minX..<maxX {
                        let centre = Point(Double(x) + 0.5, Double(y) + 0.5)
                        guard clip.contains(centre) else { continue }
                        let mapped = inverse.apply(centre)
                        let u = min(max(mapped.x - 0.5, 0), Double(imageWidth - 1))
                        let v = min(max(mapped.y - 0.5, 0), Double(imageHeight - 1))
                        var sample = Self.padded(source, width: imageWidth, height: imageHeight, u: u, v: v)
                        if alpha != 255 { sample = Compositor.scale(sample, alpha) }
                        let index = y * stride + x
                        target[index] = Compositor.over(sample, target[index])
                    }
                }
            }
        }
    }

    /// Bilinear sample at (u, v) already clamped to the pixel-centre range.
    @inline(__always)
    private static func padded(_ source: UnsafeBufferPointer<UInt32>, width: Int, height: Int, u: Double, v: Double) -> UInt32 {
        let x0 = Int(u)
        let y0 = Int(v)
        let x1 = min(x0 + 1, width - 1)
        let y1 = min(y0 + 1, height - 1)
        let wx = UInt32((u - Double(x0)) * 256 + 0.5)
        let wy = UInt32((v - Double(y0)) * 256 + 0.5)
        let p00 = source[y0 * width + x0]
        let p10 = source[y0 * width + x1]
        let p01 = source[y1 * width + x0]
        let p11 = source[y1 * width + x1]
        let w00 = (256 - wx) * (256 - wy)
        let w10 = wx * (256 - wy)
        let w01 = (256 - wx) * wy
        let w11 = wx * wy
        var result: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let sum =
                ((p00 >> shift) & 0xFF) * w00 + ((p10 >> shift) & 0xFF) * w10
                + ((p01 >> shift) & 0xFF) * w01 + ((p11 >> shift) & 0xFF) * w11
            result |= ((sum + 32_768) >> 16) << shift
            shift += 8
        }
        return result
    }
}
