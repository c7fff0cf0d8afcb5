// Basemap speed on the real San Francisco tiles (../shared/fixtures/basemap/sanfrancisco,
// nine z15 Mapbox Streets v7 tiles) with the example Streets style, and on the committed
// Helsinki demo archive with the built-in day style: a 640×480 picture at zoom 15, warm
// (decoded tiles cached) and cold (cache emptied each time), and the decode of one tile.
// IntegrationTests/cairo/cairo_compare.sh basemap times Cairo drawing the same fills and lines; run both
// in one session for the ratio. Without ../shared the San Francisco benchmarks are skipped.

import Basemap
import Benchmark
import Foundation
import Geo
import Raster

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let sanFrancisco = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/basemap/sanfrancisco")

/// Loose tiles held in memory.
struct MemoryTiles: TileSource {
    let metadata: TileArchiveMetadata
    let tiles: [TileID: [UInt8]]
    var identity: String { "memory" }
    func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? { tiles[id] }
}

private func sanFranciscoBasemap() -> Basemap? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: sanFrancisco.path) else {
        print("../shared/fixtures/basemap is absent: San Francisco benchmarks skipped")
        return nil
    }
    var tiles: [TileID: [UInt8]] = [:]
    for name in names where name.hasSuffix(".mvt") {
        let parts = name.dropLast(4).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let data = try? Data(contentsOf: sanFrancisco.appendingPathComponent(name)) else { continue }
        tiles[TileID(zoom: parts[0], x: parts[1], y: parts[2])] = [UInt8](data)
    }
    let source = MemoryTiles(metadata: TileArchiveMetadata(format: .mvt, minZoom: 15, maxZoom: 15), tiles: tiles)
    let styleURL = root.appendingPathComponent("Tests/BasemapTests/Fixtures/mapbox-streets-v7.json")
    guard let data = try? Data(contentsOf: styleURL), let style = try? MapStyle(data: data, name: "mapbox-streets-v7") else {
        print("cannot read \(styleURL.path)")
        return nil
    }
    return Basemap(source: source, style: style)
}

/// The view of the benchmarks: the middle of the nine San Francisco tiles.
let sanFranciscoView = MapView(center: LatLng(latitude: 37.7665, longitude: -122.4485), zoom: 15, width: 640, height: 480)
let helsinkiView = MapView(center: LatLng(latitude: 60.1699, longitude: 24.9410), zoom: 15, width: 640, height: 480)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: .seconds(3),
        maxIterations: 500
    )

    if let basemap = sanFranciscoBasemap() {
        Benchmark("SF z15 640x480 warm") { benchmark in
            var canvas = Canvas(width: 640, height: 480)
            basemap.draw(into: &canvas, view: sanFranciscoView)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                basemap.draw(into: &canvas, view: sanFranciscoView)
                blackHole(canvas)
            }
        }
        Benchmark("SF z15 640x480 cold") { benchmark in
            var canvas = Canvas(width: 640, height: 480)
            for _ in benchmark.scaledIterations {
                let fresh = Basemap(source: basemap.source, style: basemap.style)
                fresh.draw(into: &canvas, view: sanFranciscoView)
                blackHole(canvas)
            }
        }
        Benchmark("SF z15 640x480 fills and lines only (display list replayed)") { benchmark in
            let list = basemap.geometryDisplayList(view: sanFranciscoView)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try list.render())
            }
        }
        previewBenchmarks(basemap)
        if let z14 = sanFranciscoZ14Source() {
            tileBenchmarks("SF", source: z14, style: basemap.style, center: sanFranciscoView.center)
        }
        let tileBytes = (try? basemap.source.tileData(TileID(zoom: 15, x: 5238, y: 12666))) ?? nil
        Benchmark("Decode one SF tile (101 KB)") { benchmark in
            guard let tileBytes else { return }
            for _ in benchmark.scaledIterations {
                blackHole(try VectorTile(decoding: tileBytes))
            }
        }
    }

    let demo = root.appendingPathComponent("data-samples/helsinki.pmtiles").path
    if let source = try? TileArchive.open(path: demo), let style = try? MapStyle.builtin(named: "openmaptiles-day") {
        let basemap = Basemap(source: source, style: style)
        tileBenchmarks("Helsinki", source: source, style: style, center: helsinkiView.center)
        Benchmark("Helsinki z15 640x480 warm (day)") { benchmark in
            var canvas = Canvas(width: 640, height: 480)
            basemap.draw(into: &canvas, view: helsinkiView)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                basemap.draw(into: &canvas, view: helsinkiView)
                blackHole(canvas)
            }
        }
    } else {
        print("cannot open \(demo): Helsinki benchmark skipped")
    }
}
