// True 1-bit PNGs, for small monochrome displays (a 128×64 OLED takes its frame buffer as
// bits): every pixel is thresholded to black or white and the file is greyscale at bit depth
// 1, eight pixels a byte, an eighth of an 8-bit greyscale file before compression.

import CPNGShim

extension PNGCodec {
    /// The image as a 1-bit greyscale PNG: a pixel whose luminance (composited over white,
    /// Rec. 709 weights on the sRGB values) is at least `threshold` is white, any other black.
    package static func encodeMonochrome(_ image: Image, threshold: UInt8 = 128, compressionLevel: Int = 6) throws(RasterError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw RasterError(code: .invalidArgument, message: "cannot encode an empty \(image.width)x\(image.height) image as PNG")
        }
        let rows = monochromeRows(image, threshold: threshold)
        let stride = (image.width + 7) / 8
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let level = Int32(min(max(compressionLevel, 0), 9))
        let status = rows.withUnsafeBufferPointer { buffer in
            tps_png_encode_gray1(
                buffer.baseAddress, UInt32(image.width), UInt32(image.height), stride, level,
                &output, &size, &message, message.count)
        }
        defer { tps_png_free(output) }
        guard status == Int32(TPS_PNG_OK), let output else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RasterError(
                code: status == Int32(TPS_PNG_ERROR_ARGUMENT) ? .invalidArgument : .encodeFailed,
                message: "PNG encoding failed: \(text.isEmpty ? "unknown libpng error" : text)")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The image's rows packed one bit a pixel, most significant bit first, 1 for white.
    static func monochromeRows(_ image: Image, threshold: UInt8) -> [UInt8] {
        let stride = (image.width + 7) / 8
        var rows = [UInt8](repeating: 0, count: stride * image.height)
        // Premultiplied over white: c + (255 − a). Weights 0.2126/0.7152/0.0722 in 1/65536ths.
        let limit = UInt32(threshold) * 65_536
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = pixels[y * image.width + x]
                    let under = 255 - (pixel >> 24)
                    let r = (pixel & 0xFF) + under
                    let g = (pixel >> 8 & 0xFF) + under
                    let b = (pixel >> 16 & 0xFF) + under
                    if 13_933 * r + 46_871 * g + 4_732 * b >= limit {
                        rows[y * stride + x / 8] |= 0x80 >> UInt8(x % 8)
                    }
                }
            }
        }
        return rows
    }
}
