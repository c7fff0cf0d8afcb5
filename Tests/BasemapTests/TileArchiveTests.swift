import Basemap
import Foundation
import GRDB
import Raster
import Testing

/// Tile archives on the real Helsinki data: MBTiles and PMTiles hold the same tiles, damaged
/// or foreign files are refused with a message naming them, missing tiles are nil.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct TileArchiveTests {
    /// Every (z, x, y) the MBTiles file holds, read from SQLite directly.
    static func helsinkiTileIDs() throws -> [TileID] {
        let queue = try DatabaseQueue(
            path: SharedFixtures.helsinkiMBTiles,
            configuration: {
                var configuration = Configuration()
                configuration.readonly = true
                return configuration
            }())
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row FROM tiles ORDER BY 1, 2, 3").map { row in
                let zoom: Int = row[0]
                let tmsRow: Int = row[2]
                return TileID(zoom: zoom, x: row[1], y: (1 << zoom) - 1 - tmsRow)
            }
        }
    }

    /// The two Helsinki archives give byte-identical decompressed tiles, tile for tile, and
    /// every one decodes as a valid vector tile.
    @Test func mbtilesAndPMTilesHoldTheSameTiles() throws {
        let mbtiles = try TileArchive.open(path: SharedFixtures.helsinkiMBTiles)
        let pmtiles = try TileArchive.open(path: SharedFixtures.helsinkiPMTiles)
        let ids = try Self.helsinkiTileIDs()
        #expect(ids.count == 19)
        for id in ids {
            let a = try mbtiles.tileData(id)
            let b = try pmtiles.tileData(id)
            #expect(a != nil, "MBTiles lacks \(id)")
            #expect(a == b, "tile \(id) differs between MBTiles and PMTiles")
            if let a { _ = try VectorTile(decoding: a) }
        }
        #expect(mbtiles.metadata.format == .mvt && pmtiles.metadata.format == .mvt)
        #expect(mbtiles.metadata.minZoom == 0 && mbtiles.metadata.maxZoom == 14)
        #expect(pmtiles.metadata.minZoom == 0 && pmtiles.metadata.maxZoom == 14)
        // Zero bounds mean "not given".
        #expect(mbtiles.metadata.bounds == nil)
    }

    /// A tile the archive does not hold is nil, not an error, in both formats.
    @Test func missingTileIsNil() throws {
        for path in [SharedFixtures.helsinkiMBTiles, SharedFixtures.helsinkiPMTiles] {
            let archive = try TileArchive.open(path: path)
            #expect(try archive.tileData(TileID(zoom: 14, x: 0, y: 0)) == nil)
            #expect(try archive.tileData(TileID(zoom: 20, x: 1, y: 1)) == nil)
            #expect(try archive.tileData(TileID(zoom: 3, x: 9, y: 1)) == nil, "outside the zoom's grid")
        }
    }

    /// Files that are not tile archives are refused with the file's name and what is wrong.
    @Test func foreignFilesAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("basemap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func refused(_ name: String, _ bytes: [UInt8], code: BasemapError.Code, saying text: String) throws {
            let path = directory.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do {
                _ = try TileArchive.open(path: path)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.message.contains(path), "\(name): \(error.message)")
                #expect(error.message.contains(text), "\(name): \(error.message)")
            }
        }
        try refused("empty.pmtiles", [], code: .notATileArchive, saying: "empty")
        try refused("text.mbtiles", Array("{\"not\": \"tiles\"}".utf8), code: .notATileArchive, saying: "not a tile archive")
        let pmtiles = try SharedFixtures.bytes("helsinki/helsinki.pmtiles")
        try refused("truncated.pmtiles", Array(pmtiles.prefix(200)), code: .corruptArchive, saying: "truncated")
        try refused("short.pmtiles", Array(pmtiles.prefix(60)), code: .notATileArchive, saying: "too short")
        var wrongVersion = pmtiles
        wrongVersion[7] = 2
        try refused("v2.pmtiles", wrongVersion, code: .unsupported, saying: "version 2")
        var brokenRoot = pmtiles
        let rootOffset = Int(brokenRoot[8]) | Int(brokenRoot[9]) << 8
        for index in rootOffset..<(rootOffset + 16) { brokenRoot[index] = 0xFF }
        try refused("garbage-root.pmtiles", brokenRoot, code: .corruptArchive, saying: "root directory")
        let mbtiles = try SharedFixtures.bytes("helsinki/helsinki.mbtiles")
        try refused("truncated.mbtiles", Array(mbtiles.prefix(5000)), code: .notATileArchive, saying: "not a usable MBTiles")
        // A valid SQLite database that is not MBTiles.
        let other = directory.appendingPathComponent("other.sqlite").path
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE trips (id INTEGER)") }
        do {
            _ = try TileArchive.open(path: other)
            Issue.record("an SQLite file without tiles was accepted")
        } catch {
            #expect(error.message.contains("without a \"tiles\" table"), "\(error.message)")
        }
        do {
            _ = try TileArchive.open(path: directory.appendingPathComponent("absent.pmtiles").path)
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.code == .io)
            #expect(error.message.contains("No such file"), "\(error.message)")
        }
    }

    /// A raster MBTiles file (PNG tiles) opens as such and is drawn as images.
    @Test func rasterMBTiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString).mbtiles").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let color = Color(red: 200, green: 120, blue: 40)
        let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in [color.red, color.green, color.blue, 255] })
        let png = try PNGCodec.encode(try Image(width: 256, height: 256, straightRGBA: pixels))
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE metadata (name TEXT, value TEXT)")
            try db.execute(sql: "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
            try db.execute(
                sql: "INSERT INTO metadata VALUES ('format', 'png'), ('minzoom', '2'), ('maxzoom', '2'), "
                    + "('attribution', 'Raster &copy; test')")
            // Tile (2, 1, 1) in XYZ is TMS row 2.
            try db.execute(sql: "INSERT INTO tiles VALUES (2, 1, 2, ?)", arguments: [Data(png)])
        }
        let archive = try TileArchive.open(path: path)
        #expect(archive.metadata.format == .png)
        #expect(try archive.tileData(TileID(zoom: 2, x: 1, y: 1)) == png)
        let basemap = Basemap(source: archive, style: try MapStyle.builtin(named: "openmaptiles-night"))
        #expect(basemap.attribution == "Raster © test")
        var canvas = Canvas(width: 60, height: 60)
        basemap.draw(into: &canvas, view: MapView(center: .init(latitude: 40, longitude: -45), zoom: 2.2, width: 60, height: 60))
        #expect(canvas.pixel(x: 20, y: 20) == color.premultiplied)
    }

    /// Every real tile in the shared data decodes under the strict decoder.
    @Test func realTilesDecode() throws {
        for tile in try SharedFixtures.sanFranciscoTiles() {
            let decoded = try VectorTile(decoding: tile.bytes)
            #expect(decoded.layer(named: "road") != nil)
        }
        for name in ["14-9384-9577", "14-9384-9578", "14-9385-9577", "14-9385-9578"] {
            let bytes = try Inflate.decompress(try SharedFixtures.bytes("compressed/\(name).mvt.gz"))
            _ = try VectorTile(decoding: bytes)
        }
    }
}
