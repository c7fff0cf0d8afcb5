// Expected against actual PNG: how many pixels differ by more than a channel tolerance, and
// the mean absolute difference; plus a diff image for the report (differing pixels red over
// a faded copy of the expected image).

import Raster

/// The pixel metrics of two images.
struct ImageComparison {
    /// Pixels with a channel differing by more than the tolerance.
    var differentPixels: Int
    /// All pixels.
    var totalPixels: Int
    /// Mean absolute difference per channel, 0–255.
    var meanDifference: Double
    /// Largest channel difference.
    var maximumDifference: Int
    /// Differing pixels in red over the faded expected image (PNG).
    var diffPNG: [UInt8]

    /// Compares two PNGs; throws when either cannot be decoded. Images of different sizes
    /// are reported by the caller before this is called.
    static func compare(expected: Image, actual: Image, channelTolerance: Int) throws(RasterError) -> ImageComparison {
        let e = expected.straightRGBA
        let a = actual.straightRGBA
        var diff = [UInt8](repeating: 255, count: e.count)
        var different = 0
        var total = 0
        var maximum = 0
        for pixel in 0..<(expected.width * expected.height) {
            let base = pixel * 4
            var largest = 0
            for channel in 0..<4 {
                let d = abs(Int(e[base + channel]) - Int(a[base + channel]))
                total += d
                largest = max(largest, d)
            }
            maximum = max(maximum, largest)
            if largest > channelTolerance {
                different += 1
                diff[base] = 230
                diff[base + 1] = 0
                diff[base + 2] = 0
            } else {
                let luma = (Int(e[base]) * 3 + Int(e[base + 1]) * 6 + Int(e[base + 2])) / 10
                let faded = UInt8(200 + luma * 55 / 255)
                diff[base] = faded
                diff[base + 1] = faded
                diff[base + 2] = faded
            }
        }
        let pixels = expected.width * expected.height
        let png = try PNGCodec.encode(try Image(width: expected.width, height: expected.height, straightRGBA: diff))
        return ImageComparison(
            differentPixels: different, totalPixels: pixels,
            meanDifference: pixels == 0 ? 0 : Double(total) / Double(pixels * 4),
            maximumDifference: maximum, diffPNG: png)
    }

    /// Whether the metrics are within `tolerances`.
    func passes(_ tolerances: Scenario.Tolerances) -> Bool {
        Double(differentPixels) <= tolerances.differentPixels * Double(totalPixels) && meanDifference <= tolerances.meanDifference
    }
}
