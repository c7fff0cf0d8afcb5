import Basemap
import Foundation
import Raster
import Testing

/// PMTiles archives written by the test's own writer: leaf directories, run lengths, no
/// internal compression, PNG tiles.
struct PMTilesTests {
    /// 400 tiles behind eight leaf directories, with runs of identical tiles, read back.
    @Test func leafDirectoriesAndRunLengths() throws {
        var tiles: [TileID: [UInt8]] = [:]
        for x in 0..<20 {
            for y in 0..<20 {
                // Runs: the left half of every row holds the same bytes.
                tiles[TileID(zoom: 5, x: x, y: y)] = x < 10 ? [1, 2, 3] : Array("tile \(x) \(y)".utf8)
            }
        }
        let bytes = TileBuilder.pmtiles(tiles, leafSize: 50)
        let archive = try PMTilesArchive(bytes: bytes, name: "leaves.pmtiles")
        for (id, expected) in tiles {
            #expect(try archive.tileData(id) == expected, "tile \(id)")
        }
        #expect(try archive.tileData(TileID(zoom: 5, x: 25, y: 3)) == nil)
        #expect(try archive.tileData(TileID(zoom: 4, x: 1, y: 1)) == nil)
        #expect(archive.metadata.minZoom == 5 && archive.metadata.maxZoom == 5)
        #expect(archive.metadata.attribution == "<b>Test</b> &amp; data")
    }

    /// A directory entry pointing outside the tile data is an error naming the archive.
    @Test func entriesOutsideTheDataAreRefused() throws {
        var bytes = TileBuilder.pmtiles([TileID(zoom: 0, x: 0, y: 0): [9, 9, 9]], leafSize: 10)
        // Shrink the declared tile data length (header bytes 64–71) to 1.
        bytes[64] = 1
        let archive = try PMTilesArchive(bytes: bytes, name: "short-data.pmtiles")
        #expect {
            try archive.tileData(TileID(zoom: 0, x: 0, y: 0))
        } throws: { error in
            (error as? BasemapError)?.message.contains("short-data.pmtiles") == true
        }
    }

    /// PNG tiles are drawn as images: two tiles of one colour cover their area seamlessly,
    /// whatever the bearing.
    @Test(arguments: [0.0, 41.0]) func rasterTilesAreDrawnAsImages(bearing: Double) throws {
        let color = Color(red: 90, green: 140, blue: 200)
        let pixels = [UInt8]((0..<(256 * 256)).flatMap { _ in [color.red, color.green, color.blue, 255] })
        let png = try PNGCodec.encode(try Image(width: 256, height: 256, straightRGBA: pixels))
        let tiles = [TileID(zoom: 3, x: 4, y: 2): png, TileID(zoom: 3, x: 5, y: 2): png]
        let archive = try PMTilesArchive(bytes: TileBuilder.pmtiles(tiles, tileType: 2), name: "raster.pmtiles")
        #expect(archive.metadata.format == .png)
        let basemap = Basemap(source: archive, style: try MapStyle.builtin(named: "openmaptiles-day"))
        // On the shared edge of the two tiles (row 2 spans latitudes 41–66.5), at zoom 3.4.
        let view = MapView(center: .init(latitude: 55, longitude: 45), zoom: 3.4, bearing: bearing, width: 120, height: 90)
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        let stats = basemap.draw(into: &canvas, view: view)
        #expect(stats.tiles == 2)
        var wrong = 0
        // Above the attribution plate.
        for y in 0..<64 {
            for x in 0..<view.pixelWidth where canvas.pixel(x: x, y: y) != color.premultiplied { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels are not the tiles' colour")
    }
}
