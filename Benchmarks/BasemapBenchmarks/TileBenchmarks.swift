// Map tiles (DESIGN §15, issue 33's speed targets): 256-pixel tiles at z15 over the San
// Francisco z14 tiles (../shared/fixtures/basemap/sanfrancisco-z14, Mapbox Streets v7 with the
// example Streets style) and the committed Helsinki demo archive (built-in day style): the
// tiles of one label block that hold data (all 16 in San Francisco; 6 in Helsinki, whose
// archive covers about a kilometre), one tile per sample:
// - "cold": a basemap with every cache empty draws those tiles once each, in order, as a map
//   opened on a new place asks for them (the first tile decodes the block's data and places
//   its labels; the others find both kept), then a new basemap starts over;
// - "cold, nothing kept": a new basemap for every tile (decoding and the block's labels each
//   time), the tiles in turn;
// - "fills and lines, display list replayed": our rasteriser replaying the tile's geometry, the
//   display list `tripshare gallery basemap --tiles` writes for IntegrationTests/cairo/tile_bench.sh to time
//   pycairo on.
// PNG encoding is timed on its own ("encode").

import Basemap
import Benchmark
import Foundation
import Geo
import Raster

/// The 16 tiles of the label block holding `center` at `zoom`, row by row.
func blockTiles(around center: LatLng, zoom: Int) -> [TileID] {
    let world = WebMercator.worldPoint(center, zoom: Double(zoom))
    return Basemap.labelBlockTiles(containing: TileID(zoom: zoom, x: Int(world.x / 256), y: Int(world.y / 256)))
}

/// Draws tiles one per sample, starting over with a new basemap every `fresh` tiles.
final class TileSequence: @unchecked Sendable {
    let make: () -> Basemap
    let tiles: [TileID]
    let fresh: Int
    private var basemap: Basemap
    private var drawn = 0

    init(tiles: [TileID], fresh: Int, make: @escaping () -> Basemap) {
        self.make = make
        self.tiles = tiles
        self.fresh = fresh
        basemap = make()
    }

    /// Makes the new basemap when the next tile starts over (outside the measured draw).
    func prepare() {
        if drawn > 0, drawn % fresh == 0 { basemap = make() }
    }

    /// Draws the next tile.
    func next() -> Image? {
        prepare()
        defer { drawn += 1 }
        return basemap.drawTile(tiles[drawn % tiles.count], scale: 1)?.image
    }
}

func tileBenchmarks(_ name: String, source: any TileSource, style: MapStyle, center: LatLng) {
    // The block's tiles with data: the server answers the others (outside the archive) with
    // no picture, drawing nothing (the Helsinki demo archive covers 6 of its block's 16).
    let probe = Basemap(source: source, style: style)
    let tiles = blockTiles(around: center, zoom: 15).filter(probe.hasData(near:))
    print("\(name): \(tiles.count) of the block's 16 z15 tiles hold data")
    for (label, fresh) in [("cold", tiles.count), ("cold, nothing kept", 1)] {
        // One sequence for every sample: the benchmark runs its closure once per sample, so a
        // sequence made inside it would draw the block's first tile with a new basemap each
        // time ("cold" would then time what "nothing kept" does).
        let sequence = TileSequence(tiles: tiles, fresh: fresh) { Basemap(source: source, style: style) }
        Benchmark("\(name) z15 256px tile \(label)", configuration: .init(warmupIterations: 0, maxIterations: 320)) { benchmark in
            sequence.prepare()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(sequence.next()) }
        }
    }
    // What "cold" timed before it kept its sequence between samples: the block's first tile
    // (with data or not) with a new basemap each time; for A/B runs against older binaries.
    let first = blockTiles(around: center, zoom: 15)[0]
    Benchmark("\(name) z15 256px tile, block's first tile, nothing kept", configuration: .init(maxIterations: 320)) { benchmark in
        let fresh = Basemap(source: source, style: style)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(fresh.drawTile(first, scale: 1)?.image) }
    }
    let basemap = Basemap(source: source, style: style)
    let lists = tiles.compactMap { Basemap.tileView($0, scale: 1).map(basemap.geometryDisplayList(view:)) }
    Benchmark("\(name) z15 256px tile fills and lines only (display list replayed)") { benchmark in
        var index = 0
        for _ in benchmark.scaledIterations {
            blackHole(try lists[index % lists.count].render())
            index += 1
        }
    }
    let images = tiles.compactMap { basemap.drawTile($0, scale: 1)?.image }
    Benchmark("\(name) z15 256px tile encode") { benchmark in
        var index = 0
        for _ in benchmark.scaledIterations {
            blackHole(try PNGCodec.encode(images[index % images.count]))
            index += 1
        }
    }
}

/// The San Francisco z14 tiles (our z15 pictures draw vector tiles of z14).
func sanFranciscoZ14Source() -> (any TileSource)? {
    let folder = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/basemap/sanfrancisco-z14")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
    var tiles: [TileID: [UInt8]] = [:]
    for name in names where name.hasSuffix(".mvt") {
        let parts = name.dropLast(4).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { continue }
        tiles[TileID(zoom: parts[0], x: parts[1], y: parts[2])] = [UInt8](data)
    }
    return MemoryTiles(metadata: TileArchiveMetadata(format: .mvt, minZoom: 14, maxZoom: 14), tiles: tiles)
}
