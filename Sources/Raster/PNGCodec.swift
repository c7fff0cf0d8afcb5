// PNG codec over libpng (through CPNGShim, which keeps libpng's longjmp in C). Contract:
// - encode writes 8-bit RGB when every pixel is opaque, RGBA otherwise, un-premultiplying
//   with exact rounding; filter and zlib settings are options, defaulting to the fastest
//   measured on map-like images (see `PNGEncodingOptions.default`);
// - decode accepts any PNG libpng reads (palette, grey, 16-bit, interlaced, tRNS) and
//   returns a premultiplied image; a corrupt, truncated or oversized file is a RasterError
//   with a message naming the problem, and no pixel memory is allocated for oversized ones.

import CPNGShim

/// The PNG row filter(s) the encoder may use.
public enum PNGFilter: String, Hashable, Sendable, Codable, CaseIterable {
    /// Bytes as they are.
    case none
    /// Difference from the pixel to the left.
    case sub
    /// Difference from the pixel above.
    case up
    /// Difference from the mean of left and above.
    case average
    /// Difference from the Paeth predictor.
    case paeth
    /// libpng's heuristic choice among all five per row.
    case all

    var libpngMask: Int32 {
        switch self {
        case .none: 0x08
        case .sub: 0x10
        case .up: 0x20
        case .average: 0x40
        case .paeth: 0x80
        case .all: 0xF8
        }
    }
}

/// zlib's compression strategy.
public enum PNGStrategy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Z_DEFAULT_STRATEGY.
    case `default`
    /// Z_FILTERED: favours Huffman coding over short matches.
    case filtered
    /// Z_HUFFMAN_ONLY: no string matching.
    case huffmanOnly
    /// Z_RLE: matches at distance one only.
    case rle

    var zlibValue: Int32 {
        switch self {
        case .default: 0
        case .filtered: 1
        case .huffmanOnly: 2
        case .rle: 3
        }
    }
}

/// How to encode a PNG: row filter, zlib level (0–9) and strategy.
public struct PNGEncodingOptions: Hashable, Sendable, Codable {
    /// The row filter.
    public var filter: PNGFilter
    /// zlib level, 0 (store) … 9 (smallest).
    public var compressionLevel: Int
    /// zlib strategy.
    public var strategy: PNGStrategy

    /// Options from their parts.
    public init(filter: PNGFilter, compressionLevel: Int, strategy: PNGStrategy) {
        self.filter = filter
        self.compressionLevel = compressionLevel
        self.strategy = strategy
    }

    /// Chosen by measuring a 640×640 map-like preview (flat areas, anti-aliased lines):
    /// no filter with zlib level 1 was both the fastest and among the smallest (22 KB in
    /// about 2 ms, against 17 KB in 10–14 ms for libpng's defaults); filters only pay off
    /// on gradients, which maps do not have, and Z_RLE needs a filter to find runs.
    public static let `default` = PNGEncodingOptions(filter: .none, compressionLevel: 1, strategy: .default)

    /// libpng's own defaults (all filters, level 6), for comparison.
    package static let libpngDefault = PNGEncodingOptions(filter: .all, compressionLevel: 6, strategy: .filtered)
}

/// Limits on what the decoder accepts.
public struct PNGDecodingLimits: Hashable, Sendable {
    /// The largest width or height.
    public var maximumDimension: Int
    /// The most pixels (width × height).
    public var maximumPixels: Int

    /// Limits from their parts.
    public init(maximumDimension: Int, maximumPixels: Int) {
        self.maximumDimension = maximumDimension
        self.maximumPixels = maximumPixels
    }

    /// 4096 × 4096 and 16 megapixels: far beyond any icon, far below memory trouble.
    public static let `default` = PNGDecodingLimits(maximumDimension: 4096, maximumPixels: 16_777_216)
}

/// Encodes and decodes PNG through libpng.
public enum PNGCodec {
    /// Encodes an image: RGB when opaque, RGBA (un-premultiplied) otherwise.
    public static func encode(_ image: Image, options: PNGEncodingOptions = .default) throws(RasterError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw RasterError(code: .invalidArgument, message: "cannot encode an empty \(image.width)x\(image.height) image as PNG")
        }
        let opaque = image.isOpaque
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let filters = options.filter.libpngMask
        let level = Int32(min(max(options.compressionLevel, 0), 9))
        let strategy = options.strategy.zlibValue
        let status: Int32
        if opaque {
            // Canvas memory is R, G, B, A per pixel: libpng skips the alpha byte itself.
            status = image.pixels.withUnsafeBytes { bytes in
                tps_png_encode(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(image.width),
                    UInt32(image.height), image.width * 4, 4, 1, filters, level, strategy,
                    &output, &size, &message, message.count)
            }
        } else {
            let rows = packStraightRGBA(image.pixels)
            status = rows.withUnsafeBufferPointer { rowBuffer in
                tps_png_encode(
                    rowBuffer.baseAddress, UInt32(image.width), UInt32(image.height),
                    image.width * 4, 4, 0, filters, level, strategy,
                    &output, &size, &message, message.count)
            }
        }
        defer { tps_png_free(output) }
        guard status == Int32(TPS_PNG_OK), let output else {
            throw error(status: status, message: message, fallback: .encodeFailed)
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Decodes a PNG into a premultiplied image, within `limits`.
    public static func decode(_ data: [UInt8], limits: PNGDecodingLimits = .default) throws(RasterError) -> Image {
        var output: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let dimension = UInt32(min(max(limits.maximumDimension, 1), Int(Int32.max)))
        let status = data.withUnsafeBufferPointer { input in
            tps_png_decode(
                input.baseAddress, input.count, dimension, UInt64(max(limits.maximumPixels, 1)),
                &output, &width, &height, &message, message.count)
        }
        defer { tps_png_free(output) }
        guard status == Int32(TPS_PNG_OK), let output else {
            throw error(status: status, message: message, fallback: .corruptPNG)
        }
        let count = Int(width) * Int(height)
        var pixels = [UInt32](repeating: 0, count: count)
        pixels.withUnsafeMutableBufferPointer { target in
            for index in 0..<count {
                let base = output + index * 4
                let alpha = base[3]
                if alpha == 255 {
                    target[index] = UInt32(base[0]) | UInt32(base[1]) << 8 | UInt32(base[2]) << 16 | 0xFF00_0000
                } else if alpha != 0 {
                    target[index] =
                        PremultipliedColor(
                            red: multiply(base[0], alpha), green: multiply(base[1], alpha),
                            blue: multiply(base[2], alpha), alpha: alpha
                        ).packed
                }
            }
        }
        return Image(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func error(status: Int32, message: [CChar], fallback: RasterError.Code) -> RasterError {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let code: RasterError.Code =
            switch status {
            case Int32(TPS_PNG_ERROR_NOT_PNG): .notPNG
            case Int32(TPS_PNG_ERROR_TRUNCATED): .truncated
            case Int32(TPS_PNG_ERROR_TOO_LARGE): .tooLarge
            case Int32(TPS_PNG_ERROR_NO_MEMORY): .outOfMemory
            case Int32(TPS_PNG_ERROR_ARGUMENT): .invalidArgument
            default: fallback
            }
        let prefix = fallback == .encodeFailed ? "PNG encoding failed" : "invalid PNG"
        return RasterError(code: code, message: "\(prefix): \(text.isEmpty ? "unknown libpng error" : text)")
    }

    /// Pixels un-premultiplied (rounded to nearest) as RGBA bytes.
    private static func packStraightRGBA(_ pixels: [UInt32]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: pixels.count * 4) { buffer, initialized in
            pixels.withUnsafeBufferPointer { source in
                guard let out = buffer.baseAddress else { return }
                for (index, pixel) in source.enumerated() {
                    let target = out + index * 4
                    let alpha = UInt8(truncatingIfNeeded: pixel >> 24)
                    if alpha == 255 || alpha == 0 {
                        target[0] = UInt8(truncatingIfNeeded: pixel)
                        target[1] = UInt8(truncatingIfNeeded: pixel >> 8)
                        target[2] = UInt8(truncatingIfNeeded: pixel >> 16)
                    } else {
                        target[0] = divide(UInt8(truncatingIfNeeded: pixel), alpha)
                        target[1] = divide(UInt8(truncatingIfNeeded: pixel >> 8), alpha)
                        target[2] = divide(UInt8(truncatingIfNeeded: pixel >> 16), alpha)
                    }
                    target[3] = alpha
                }
            }
            initialized = pixels.count * 4
        }
    }
}
