import ArgumentParser
import Basemap
import Foundation
import Geo
import Raster

/// `tripshare gallery basemap`: the basemap's fills and lines for IntegrationTests/cairo/cairo_compare.sh basemap,
/// as a display list (what pycairo replays) and as our rasteriser draws them.
struct GalleryBasemapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basemap",
        abstract: "Write the basemap's fills and lines of four views as NAME.json (a display list) and NAME.png (as we draw them).",
        discussion: """
            The views: San Francisco at z15 and at z17 turned 35 degrees (the loose Mapbox Streets v7 tiles in \
            FIXTURES/sanfrancisco, drawn with the Streets v7 example style), central Helsinki at z15 by day and at \
            z16.4 by night at scale 2 (FIXTURES/helsinki/helsinki.pmtiles with the built-in OpenMapTiles styles). Labels and \
            the attribution are left out. IntegrationTests/cairo/cairo_compare.sh basemap replays each NAME.json with Cairo and compares.
            Example: tripshare gallery basemap --out /tmp/basemap-cairo
            """
    )

    @Option(help: "The folder to write to.")
    var out: String

    @Option(help: "The shared basemap fixtures.")
    var fixtures = "../shared/fixtures/basemap"

    @Option(help: "The Mapbox Streets v7 example style the San Francisco views are drawn with.")
    var streetsStyle = "Tests/BasemapTests/Fixtures/mapbox-streets-v7.json"

    @Flag(
        help: ArgumentHelp(
            "Instead, the map tiles at z15 that Benchmarks/BasemapBenchmarks times: those with data of a label block "
                + "over San Francisco (FIXTURES/sanfrancisco-z14) and of one over Helsinki (--helsinki), as sf-tile-X-Y and "
                + "helsinki-tile-X-Y."))
    var tiles = false

    @Option(help: "With --tiles: the Helsinki archive (the demo's).")
    var helsinki = "data-samples/helsinki.pmtiles"

    func run() throws {
        if tiles { return try writeTiles() }
        let sanFrancisco = LatLng(latitude: 37.7665, longitude: -122.4485)
        let helsinki = LatLng(latitude: 60.1699, longitude: 24.9410)
        let streets = try Basemap(
            source: LooseTiles(folder: "\(fixtures)/sanfrancisco"), style: MapStyle(data: read(streetsStyle), name: "mapbox-streets-v7"))
        let helsinkiTiles = try TileArchive.open(path: "\(fixtures)/helsinki/helsinki.pmtiles")
        let views: [(String, Basemap, MapView)] = [
            ("sf-z15", streets, MapView(center: sanFrancisco, zoom: 15, width: 640, height: 480)),
            ("sf-z17-bearing", streets, MapView(center: sanFrancisco, zoom: 17, bearing: 35, width: 640, height: 480)),
            (
                "helsinki-z15-day", Basemap(source: helsinkiTiles, style: try MapStyle.builtin(named: "openmaptiles-day")),
                MapView(center: helsinki, zoom: 15, width: 640, height: 480)
            ),
            (
                "helsinki-z16-night-scale2", Basemap(source: helsinkiTiles, style: try MapStyle.builtin(named: "openmaptiles-night")),
                MapView(center: helsinki, zoom: 16.4, width: 400, height: 300, scale: 2)
            ),
        ]
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, basemap, view) in views {
            try JSONEncoder().encode(basemap.geometryDisplayList(view: view)).write(
                to: URL(fileURLWithPath: out).appendingPathComponent("\(name).json"))
            try GalleryCommand.write(basemap.drawGeometry(view: view), "\(name).png", in: out)
        }
    }

    /// The benchmark tiles' fills and lines (IntegrationTests/cairo/tile_bench.sh times Cairo on them).
    private func writeTiles() throws {
        let blocks: [(String, Basemap, LatLng)] = [
            (
                "sf-tile",
                try Basemap(
                    source: LooseTiles(folder: "\(fixtures)/sanfrancisco-z14"),
                    style: MapStyle(data: read(streetsStyle), name: "mapbox-streets-v7")),
                LatLng(latitude: 37.7665, longitude: -122.4485)
            ),
            (
                "helsinki-tile",
                Basemap(source: try TileArchive.open(path: helsinki), style: try MapStyle.builtin(named: "openmaptiles-day")),
                LatLng(latitude: 60.1699, longitude: 24.9410)
            ),
        ]
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for (name, basemap, center) in blocks {
            let world = WebMercator.worldPoint(center, zoom: 15)
            // The block's tiles with data, as the benchmark (the others are never drawn).
            for tile in Basemap.labelBlockTiles(containing: TileID(zoom: 15, x: Int(world.x / 256), y: Int(world.y / 256)))
            where basemap.hasData(near: tile) {
                guard let view = Basemap.tileView(tile, scale: 1) else { continue }
                try JSONEncoder().encode(basemap.geometryDisplayList(view: view)).write(
                    to: URL(fileURLWithPath: out).appendingPathComponent("\(name)-\(tile.x)-\(tile.y).json"))
            }
        }
    }

    private func read(_ path: String) throws -> Data {
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw ValidationError("\(path) cannot be read: \(error)") }
    }
}

/// Tiles as loose `Z-X-Y.mvt` files in a folder (the San Francisco fixtures come so).
private struct LooseTiles: TileSource {
    let metadata: TileArchiveMetadata
    let tiles: [TileID: [UInt8]]
    let identity: String

    init(folder: String) throws {
        var tiles: [TileID: [UInt8]] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mvt") }
        for name in names {
            let parts = name.dropLast(4).split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { throw ValidationError("\(folder)/\(name) is not named Z-X-Y.mvt") }
            tiles[TileID(zoom: parts[0], x: parts[1], y: parts[2])] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
        }
        guard let zooms = tiles.keys.map(\.zoom).sorted().first.map({ [$0, tiles.keys.map(\.zoom).max() ?? $0] }) else {
            throw ValidationError("\(folder) holds no .mvt tiles")
        }
        metadata = TileArchiveMetadata(
            format: .mvt, minZoom: zooms[0], maxZoom: zooms[1], attribution: "© Mapbox © OpenStreetMap contributors",
            name: URL(fileURLWithPath: folder).lastPathComponent)
        self.tiles = tiles
        identity = "folder:\(folder)"
    }

    func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? { tiles[id] }
}
