// Image blits. Contract: `draw(_:transform:opacity:)` maps image pixel space (0…width,
// 0…height, pixel centres at +0.5) through an affine transform onto the canvas and
// composites source-over with a global opacity. Each canvas pixel centre is mapped back
// into the image and sampled bilinearly from premultiplied pixels (transparent outside the
// image, as Cairo's EXTEND_NONE with a bilinear filter), which gives smooth scaling,
// rotation and anti-aliased edges. A pure whole-pixel translation copies pixels unfiltered.

extension Canvas {
    /// Draws an image mapped by `transform` (image pixels → canvas pixels).
    public mutating func draw(_ image: Image, transform: Transform = .identity, opacity: Double = 1) {
        let alpha = alphaByte(opacity)
        guard alpha != 0, image.width > 0, image.height > 0, width > 0, height > 0,
            let inverse = transform.inverted(), inverse.a.isFinite, inverse.b.isFinite, inverse.tx.isFinite, inverse.ty.isFinite
        else { return }
        if transform.a == 1, transform.b == 0, transform.c == 0, transform.d == 1,
            transform.tx == transform.tx.rounded(), transform.ty == transform.ty.rounded(),
            abs(transform.tx) < 1e9, abs(transform.ty) < 1e9
        {
            copy(image, x: Int(transform.tx), y: Int(transform.ty), alpha: alpha)
            return
        }
        // Canvas bounds of the transformed image, one pixel of margin for the filter.
        let corners = [
            Point(0, 0), Point(Double(image.width), 0),
            Point(0, Double(image.height)), Point(Double(image.width), Double(image.height)),
        ]
        .map { transform.apply($0) }
        guard corners.allSatisfy(\.isFinite) else { return }
        func clamped(_ value: Double) -> Int { Int(min(max(value, -1e9), 1e9)) }
        let minX = max(0, clamped((corners.map(\.x).min() ?? 0).rounded(.down)) - 1)
        let maxX = min(width, clamped((corners.map(\.x).max() ?? 0).rounded(.up)) + 1)
        let minY = max(0, clamped((corners.map(\.y).min() ?? 0).rounded(.down)) - 1)
        let maxY = min(height, clamped((corners.map(\.y).max() ?? 0).rounded(.up)) + 1)
        guard minX < maxX, minY < maxY else { return }
        let stride = width
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in minY..<maxY {
                    let start = inverse.apply(Point(Double(minX) + 0.5, Double(y) + 0.5))
                    for x in minX..<maxX {
                        let step = Double(x - minX)
                        let u = start.x + inverse.a * step - 0.5
                        let v = start.y + inverse.b * step - 0.5
                        var sample = Self.bilinear(source, width: image.width, height: image.height, u: u, v: v)
                        if sample == 0 { continue }
                        if alpha != 255 { sample = Compositor.scale(sample, alpha) }
                        let index = y * stride + x
                        target[index] = Compositor.over(sample, target[index])
                    }
                }
            }
        }
    }

    /// Copies an image's pixels onto the canvas at a whole-pixel offset, replacing what was
    /// there (no blending), clipped to the canvas: how a picture drawn in pieces is put together.
    package mutating func replacePixels(with image: Image, x offsetX: Int, y offsetY: Int) {
        guard let (columns, rows) = overlap(of: image, x: offsetX, y: offsetY) else { return }
        let stride = width
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for y in rows {
                    (to + y * stride + columns.lowerBound).update(
                        from: from + (y - offsetY) * image.width + (columns.lowerBound - offsetX), count: columns.count)
                }
            }
        }
    }

    /// The canvas columns and rows an image placed at a whole-pixel offset covers; nil when it
    /// lies wholly outside.
    private func overlap(of image: Image, x offsetX: Int, y offsetY: Int) -> (columns: Range<Int>, rows: Range<Int>)? {
        let columns = max(0, offsetX)..<max(max(0, offsetX), min(width, offsetX + image.width))
        let rows = max(0, offsetY)..<max(max(0, offsetY), min(height, offsetY + image.height))
        return columns.isEmpty || rows.isEmpty ? nil : (columns, rows)
    }

    /// Source-over copy at a whole-pixel offset, clipped.
    private mutating func copy(_ image: Image, x offsetX: Int, y offsetY: Int, alpha: UInt8) {
        guard let (columns, rows) = overlap(of: image, x: offsetX, y: offsetY) else { return }
        let stride = width
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in rows {
                    for x in columns {
                        var pixel = source[(y - offsetY) * image.width + (x - offsetX)]
                        if alpha != 255 { pixel = Compositor.scale(pixel, alpha) }
                        let index = y * stride + x
                        target[index] = Compositor.over(pixel, target[index])
                    }
                }
            }
        }
    }

    /// Bilinear sample of premultiplied pixels at (u, v) in pixel-centre coordinates;
    /// neighbours outside the image count as transparent.
    @inline(__always)
    private static func bilinear(_ source: UnsafeBufferPointer<UInt32>, width: Int, height: Int, u: Double, v: Double) -> UInt32 {
        guard u > -1, v > -1, u < Double(width), v < Double(height) else { return 0 }
        // u, v > -1, so truncating u + 1 floors it (rounded(.down) is a libm call).
        let x0 = Int(u + 1) - 1
        let y0 = Int(v + 1) - 1
        // Weights in 1/256ths.
        let wx = UInt32((u - Double(x0)) * 256 + 0.5)
        let wy = UInt32((v - Double(y0)) * 256 + 0.5)
        func fetch(_ x: Int, _ y: Int) -> UInt32 {
            x >= 0 && y >= 0 && x < width && y < height ? source[y * width + x] : 0
        }
        let w00 = (256 - wx) * (256 - wy)
        let w10 = wx * (256 - wy)
        let w01 = (256 - wx) * wy
        let w11 = wx * wy
        let p00 = fetch(x0, y0)
        let p10 = fetch(x0 + 1, y0)
        let p01 = fetch(x0, y0 + 1)
        let p11 = fetch(x0 + 1, y0 + 1)
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
