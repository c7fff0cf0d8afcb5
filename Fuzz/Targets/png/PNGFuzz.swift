import FuzzSupport
import Raster

/// Fuzzes the PNG decoder that reads style icons, with the default limits and the
/// icon resolver's tight ones.
@main enum PNGFuzz {
    static func main() {
        runFuzzer { data, size in
            let bytes = Array(fuzzInput(data, size))
            if let image = try? PNGCodec.decode(bytes, limits: PNGDecodingLimits(maximumDimension: 512, maximumPixels: 512 * 512)) {
                guard image.width <= 512, image.height <= 512 else { fatalError("a \(image.width)×\(image.height) image passed 512-pixel limits") }
            }
            _ = try? PNGCodec.decode(bytes)
            return 0
        }
    }
}
