// Trip preview speed on the scenes of Tests/RenderTests/Fixtures/trips/osrm-{2k,20k}.json: a
// 640×640 preview of a real 2,000- or 20,000-vertex route with traffic runs, four markers
// (vehicle, pickup, a stop, dropoff) and the ETA badge, in the `traffic` style. "Draw" is
// the display list drawn (what IntegrationTests/cairo/cairo_bench.py times Cairo on, given the lists
// `tripshare render --display-list` writes); "Build" is the trip turned into that list.

import Benchmark
import Foundation
import JSON
import Raster
import Render
import Styling
import TripModel

private let trips = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/RenderTests/Fixtures/trips")

private let renderTime = Timestamp(rfc3339: "2025-02-05T17:52:30Z") ?? Timestamp(microseconds: 0)

private func preview(_ name: String) -> TripPreview? {
    do {
        let data = try Data(contentsOf: trips.appendingPathComponent("\(name).json"))
        let trip = try JSONCoding.decode(Trip.self, from: Array(data), root: "trip")
        guard let style = try StyleLibrary.bundled().style(named: "traffic") else { return nil }
        return TripPreview(trip: trip, style: style, options: PreviewOptions(width: 640, height: 640), now: renderTime)
    } catch {
        print("cannot load \(name): \(error)")
        return nil
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 2000
    )

    for name in ["osrm-2k", "osrm-20k"] {
        guard let preview = preview(name), let list = try? preview.displayList() else { continue }
        Benchmark("Build \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try preview.displayList()) }
        }
        Benchmark("Draw \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try list.render()) }
        }
        Benchmark("Draw+PNG \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PNGCodec.encode(list.render().image)) }
        }
        Benchmark("Build+Draw+PNG \(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try preview.png()) }
        }
    }
}
