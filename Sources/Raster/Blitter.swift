// Blitter: the one seam between the scan converter and pixels. Contract: the scan converter
// calls `blitSpan` for a run of pixels sharing one coverage and `blitRow` for a run of
// per-pixel coverages; both lie inside the canvas (0 ≤ x, x + count ≤ width, 0 ≤ y <
// height). Blitters are generic parameters, never existentials, so calls inline.

/// Receives coverage from the scan converter.
protocol Blitter {
    /// `count` pixels from (x, y) rightwards, all with coverage `alpha` (1…255).
    mutating func blitSpan(y: Int, x: Int, count: Int, alpha: UInt8)
    /// `count` pixels from (x, y) rightwards with coverages `alphas[0..<count]` (0…255).
    mutating func blitRow(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int)
}

/// Composites one premultiplied colour, scaled by coverage and a global alpha, source-over.
struct SolidBlitter: Blitter {
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    /// The premultiplied source colour, packed.
    let color: UInt32
    /// 0…255, multiplies every coverage.
    let globalAlpha: UInt8
    /// Colour and global alpha both opaque: full coverage means a plain store.
    let opaque: Bool

    init(pixels: UnsafeMutablePointer<UInt32>, stride: Int, color: PremultipliedColor, globalAlpha: UInt8) {
        self.pixels = pixels
        self.stride = stride
        self.color = color.packed
        self.globalAlpha = globalAlpha
        self.opaque = color.alpha == 255 && globalAlpha == 255
    }

    @inline(__always)
    mutating func blitSpan(y: Int, x: Int, count: Int, alpha: UInt8) {
        let target = pixels + y * stride + x
        if opaque && alpha == 255 {
            target.update(repeating: color, count: count)
            return
        }
        let coverage = globalAlpha == 255 ? alpha : multiply(alpha, globalAlpha)
        Compositor.blendSpan(target, count: count, source: Compositor.scale(color, coverage))
    }

    @inline(__always)
    mutating func blitRow(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
        let target = pixels + y * stride + x
        for index in 0..<count {
            var coverage = alphas[index]
            if coverage == 0 { continue }
            if globalAlpha != 255 { coverage = multiply(coverage, globalAlpha) }
            if opaque && coverage == 255 {
                target[index] = color
            } else {
                target[index] = Compositor.over(Compositor.scale(color, coverage), target[index])
            }
        }
    }
}

/// Records coverage into an 8-bit mask (tests, glyphs): the maximum of what arrives.
struct MaskBlitter: Blitter {
    let mask: UnsafeMutablePointer<UInt8>
    let stride: Int

    mutating func blitSpan(y: Int, x: Int, count: Int, alpha: UInt8) {
        let row = mask + y * stride + x
        for index in 0..<count { row[index] = max(row[index], alpha) }
    }

    mutating func blitRow(y: Int, x: Int, alphas: UnsafePointer<UInt8>, count: Int) {
        let row = mask + y * stride + x
        for index in 0..<count { row[index] = max(row[index], alphas[index]) }
    }
}
