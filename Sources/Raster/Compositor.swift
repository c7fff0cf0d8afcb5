// Compositor: source-over on premultiplied RGBA8 in sRGB space (no linear light), the
// arithmetic of pixman/Cairo so results match them to the bit: every product of two 8-bit
// values is rounded to nearest, round(a·b/255). Pixels are packed R, G, B, A in memory
// order (little-endian UInt32: R in the low byte); two channels are processed per 32-bit
// operation (0x00FF00FF lanes).

#if _endian(big)
    #error("Raster stores pixels as little-endian UInt32 (R in the low byte); big-endian hosts are not supported")
#endif

enum Compositor {
    /// Each channel of a packed pixel times `alpha`/255, rounded to nearest.
    @inline(__always)
    static func scale(_ pixel: UInt32, _ alpha: UInt8) -> UInt32 {
        let a = UInt32(alpha)
        var even = (pixel & 0x00FF_00FF) &* a &+ 0x0080_0080
        even = ((even &+ ((even >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var odd = ((pixel >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        odd = (odd &+ ((odd >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return even | odd
    }

    /// Premultiplied source over destination: s + d·(1 − αs). Never overflows a channel,
    /// since rounding is monotone and s ≤ αs per channel.
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let inverse = 255 - UInt8(truncatingIfNeeded: source >> 24)
        return source &+ scale(destination, inverse)
    }

    /// Source-over of one premultiplied colour across `count` pixels.
    @inline(__always)
    static func blendSpan(_ target: UnsafeMutablePointer<UInt32>, count: Int, source: UInt32) {
        let sourceAlpha = UInt8(truncatingIfNeeded: source >> 24)
        if sourceAlpha == 255 {
            target.update(repeating: source, count: count)
            return
        }
        if source == 0 { return }
        let inverse = 255 - sourceAlpha
        for index in 0..<count {
            target[index] = source &+ scale(target[index], inverse)
        }
    }
}
