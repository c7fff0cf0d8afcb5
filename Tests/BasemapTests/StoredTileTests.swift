import Foundation
import GRDB
import Testing

@testable import Basemap

/// Tiles as archives store them (for serving vector tiles to MapLibre), the layers archives
/// list, and styles published for MapLibre, on the real Helsinki archives.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct StoredTileTests {
    static let tile = TileID(zoom: 14, x: 9327, y: 4742)

    /// MBTiles: the stored bytes are the table's `tile_data` exactly, gzip'd, and inflate to
    /// the tile the basemap draws.
    @Test func mbtilesStoredBytesAreTheTable() throws {
        let archive = try TileArchive.open(path: SharedFixtures.helsinkiMBTiles)
        let stored = try #require(try archive.storedTile(Self.tile))
        let database = try DatabaseQueue(path: SharedFixtures.helsinkiMBTiles)
        let row = (1 << Self.tile.zoom) - 1 - Self.tile.y
        let table = try database.read { db in
            try Data.fetchOne(
                db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                arguments: [Self.tile.zoom, Self.tile.x, row])
        }
        #expect(stored.bytes == [UInt8](try #require(table)))
        #expect(stored.contentEncoding == "gzip")
        #expect(try Inflate.decompress(stored.bytes) == (try archive.tileData(Self.tile)))
        #expect(try archive.storedTile(TileID(zoom: 14, x: 0, y: 0)) == nil)
    }

    /// PMTiles: gzip'd tiles stay gzip'd and inflate to the tile the basemap draws; the same
    /// bytes as the MBTiles archive made from the same data holds.
    @Test func pmtilesStoredBytesAreGzip() throws {
        let archive = try TileArchive.open(path: SharedFixtures.helsinkiPMTiles)
        let stored = try #require(try archive.storedTile(Self.tile))
        #expect(stored.contentEncoding == "gzip")
        #expect(Inflate.isGzip(stored.bytes))
        #expect(try Inflate.decompress(stored.bytes) == (try archive.tileData(Self.tile)))
        #expect(try archive.storedTile(TileID(zoom: 14, x: 0, y: 0)) == nil)
    }

    /// Loose tiles (no compression of their own) are stored as they are.
    @Test func uncompressedSourcesStoreTheTile() throws {
        let source = try MemoryTiles.sanFrancisco()
        let id = try #require(source.tiles.keys.first)
        let stored = try #require(try source.storedTile(id))
        #expect(stored.contentEncoding == nil)
        #expect(stored.bytes == source.tiles[id])
    }

    /// Both archives list their vector layers (tilemaker writes them) for TileJSON.
    @Test func archivesListTheirLayers() throws {
        for path in [SharedFixtures.helsinkiMBTiles, SharedFixtures.helsinkiPMTiles] {
            let layers = try TileArchive.open(path: path).metadata.vectorLayers
            #expect(layers.contains { $0.id == "transportation" }, "\(path)")
            #expect(layers.contains { $0.id == "transportation_name" && $0.fields["name:latin"] == "String" }, "\(path)")
        }
    }

    /// The published style reads the server's tiles, keeps every layer, and names the glyphs.
    @Test func publishedStylePointsAtOurTiles() throws {
        let style = try MapStyle.builtin(named: "openmaptiles-day")
        let data = try style.published(tileJSON: "http://127.0.0.1:9/tiles.json", glyphs: "http://127.0.0.1:9/fonts/{fontstack}/{range}.pbf")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let sources = try #require(root["sources"] as? [String: [String: Any]])
        #expect(sources.count == 1)
        #expect(sources.values.allSatisfy { $0["type"] as? String == "vector" && $0["url"] as? String == "http://127.0.0.1:9/tiles.json" })
        #expect(root["glyphs"] as? String == "http://127.0.0.1:9/fonts/{fontstack}/{range}.pbf")
        let original = try #require(try JSONSerialization.jsonObject(with: style.document) as? [String: Any])
        #expect((root["layers"] as? [Any])?.count == (original["layers"] as? [Any])?.count)
        // Our own parser reads it back: still a style we draw.
        let again = try MapStyle(data: data, name: "published")
        #expect(again.sourceLayers == style.sourceLayers)
        #expect(again.warning == style.warning)
        // MapLibre takes one zoom curve per expression: the casings' summed curves are one curve,
        // with the sum's value at every stop of either.
        let casing = try #require((root["layers"] as? [[String: Any]])?.first { $0["id"] as? String == "road-minor-casing" })
        let width = try #require((casing["paint"] as? [String: Any])?["line-width"] as? [Any])
        #expect(width.first as? String == "interpolate")
        #expect((width[1] as? [Any])?.first as? String == "exponential")
        let stops = stride(from: 3, to: width.count, by: 2).compactMap { index in
            (width[index] as? Double).flatMap { zoom in (width[index + 1] as? Double).map { (zoom: zoom, value: $0) } }
        }
        #expect(stops.map(\.zoom) == [13, 14, 15, 17, 19])
        // At z13 the border's curve is still at its first stop (0.5); at z17 both are at a stop: 9 + 1.5.
        #expect(stops.count == 5 && abs(stops[0].value - 1.1) < 1e-9 && abs(stops[3].value - 10.5) < 1e-9, "\(stops)")
        #expect((MapStyle.singleZoomCurves(["+", 1.0, 2.0]) as? [Any])?.count == 3, "a sum of numbers stays as written")
    }
}
