// Raster speed on the map-like scenes of Tests/RasterTests/Fixtures (a real 2,000- or
// 20,000-vertex route 8 px wide with traffic runs, two circles, a rounded-rect badge, a
// rotated scaled icon and a text label, 640×640). IntegrationTests/cairo/cairo_bench.py times Cairo on
// the same display lists; run both in one session to report ratios.

import Benchmark
import Foundation
import Raster

private let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/RasterTests/Fixtures")

private func load(_ name: String) -> DisplayList {
    do {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("\(name).json"))
        return try JSONDecoder().decode(DisplayList.self, from: data)
    } catch {
        print("cannot load fixture \(name): \(error)")
        return DisplayList(width: 1, height: 1)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 2000
    )

    for name in ["scene-2k", "scene-20k", "route-2k"] {
        let list = load(name)
        Benchmark("Draw \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try list.render())
            }
        }
        Benchmark("Draw+PNG \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PNGCodec.encode(list.render().image))
            }
        }
    }

    // PNG settings on the rendered map-like scene: which filter / zlib level / strategy.
    let image: Image
    do { image = try load("scene-2k").render().image } catch { image = Canvas(width: 1, height: 1).image }
    let choices: [PNGEncodingOptions] = [
        .init(filter: .none, compressionLevel: 1, strategy: .default),
        .init(filter: .sub, compressionLevel: 1, strategy: .default),
        .init(filter: .up, compressionLevel: 1, strategy: .default),
        .init(filter: .paeth, compressionLevel: 1, strategy: .default),
        .init(filter: .all, compressionLevel: 1, strategy: .default),
        .init(filter: .sub, compressionLevel: 1, strategy: .rle),
        .init(filter: .none, compressionLevel: 1, strategy: .rle),
        .init(filter: .sub, compressionLevel: 3, strategy: .default),
        .init(filter: .sub, compressionLevel: 6, strategy: .default),
        .init(filter: .up, compressionLevel: 6, strategy: .default),
        .init(filter: .all, compressionLevel: 6, strategy: .filtered),
    ]
    for options in choices {
        let size = (try? PNGCodec.encode(image, options: options).count) ?? 0
        Benchmark("PNG \(options.filter) z\(options.compressionLevel) \(options.strategy) (\(size) bytes)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PNGCodec.encode(image, options: options))
            }
        }
    }

    let text = (try? Font.dejaVuSans(bold: true))
    Benchmark("Text label 14px (cached glyphs)") { benchmark in
        guard let text else { return }
        var canvas = Canvas(width: 120, height: 40, background: .black)
        for _ in benchmark.scaledIterations {
            try canvas.drawText("12 min", font: text, size: 14, at: Point(8, 26), color: .white)
        }
        blackHole(canvas)
    }
}
