import Foundation
import Geo
import Raster
import RasterTesting
import Testing

@testable import Basemap

/// Map tiles for web maps (Basemap+MapTiles) on the real Helsinki archive: tiles put side by
/// side are the picture of the same ground drawn whole (no seams), and labels placed over a
/// block of tiles are drawn whole across tile edges (never cut, never twice).
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct MapTileTests {
    static let helsinki = LatLng(latitude: 60.1699, longitude: 24.9410)

    static func basemap(labels: Bool = true, night: Bool = false) throws -> Basemap {
        let source = try TileArchive.open(path: SharedFixtures.helsinkiPMTiles)
        let name = night ? "openmaptiles-night" : "openmaptiles-day"
        guard !labels else { return Basemap(source: source, style: try MapStyle.builtin(named: name)) }
        // The same style without its symbol layers: the fills and lines alone.
        var root = try #require(try JSONSerialization.jsonObject(with: try MapStyle.builtin(named: name).document) as? [String: Any])
        root["layers"] = (root["layers"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "symbol" }
        return Basemap(source: source, style: try MapStyle(data: try JSONSerialization.data(withJSONObject: root), name: "\(name)-unlabelled"))
    }

    /// The tile holding `location` at `zoom`.
    static func tile(at location: LatLng, zoom: Int) -> TileID {
        let world = WebMercator.worldPoint(location, zoom: Double(zoom))
        return TileID(zoom: zoom, x: Int(world.x / 256), y: Int(world.y / 256))
    }

    /// The view whose top-left corner is `tile`'s, `tiles` tiles a side.
    static func view(from tile: TileID, tiles: Int, scale: Double) -> MapView {
        let side = Double(tiles) * 128
        let center = WebMercator.latLng(x: Double(tile.x) * 256 + side, y: Double(tile.y) * 256 + side, zoom: Double(tile.zoom))
        let pixels = Int(Double(tiles * 256) * scale)
        return MapView(center: center, zoom: Double(tile.zoom), pixelWidth: pixels, pixelHeight: pixels, scale: scale)
    }

    /// `tiles` × `tiles` tiles from `corner`, each drawn on its own, side by side.
    static func mosaic(_ basemap: Basemap, from corner: TileID, tiles: Int, scale: Double) throws -> Image {
        let side = Int(256 * scale)
        var canvas = Canvas(width: side * tiles, height: side * tiles)
        for row in 0..<tiles {
            for column in 0..<tiles {
                let tile = TileID(zoom: corner.zoom, x: corner.x + column, y: corner.y + row)
                let drawn = try #require(basemap.drawTile(tile, scale: scale))
                #expect(drawn.image.width == side && drawn.image.height == side)
                canvas.replacePixels(with: drawn.image, x: column * side, y: row * side)
            }
        }
        return canvas.image
    }

    /// Four tiles side by side are the 512-pixel picture of the same ground (fills and lines;
    /// at 1x and 2x, day and night): no seam along their edges.
    @Test(arguments: [(16, 1.0, false), (15, 2.0, false), (17, 1.0, true)])
    func mosaicIsOnePicture(_ zoom: Int, _ scale: Double, _ night: Bool) throws {
        let corner = Self.tile(at: Self.helsinki, zoom: zoom)
        let mosaic = try Self.mosaic(try Self.basemap(labels: false, night: night), from: corner, tiles: 2, scale: scale)
        let view = Self.view(from: corner, tiles: 2, scale: scale)
        // The whole picture's fills and lines (a picture's attribution is left out too).
        var whole = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        var painter = MapPainter(basemap: try Self.basemap(labels: false, night: night), view: view, recorder: nil)
        painter.paint(into: &whole, keepOut: [], labels: false)
        #expect(painter.stats.tiles > 0)
        // The same pixels, but for float rounding (at most 2 of 255, in a few pixels)...
        let difference = GoldenImage.difference(mosaic, from: whole.image)
        #expect(difference.largest <= 2, "\(difference)")
        #expect(difference.pixels * 250 <= mosaic.width * mosaic.height, "\(difference)")
        // ...also along the edges where the tiles meet, where the rasteriser's clipping to each
        // tile rounds differently in a few pixels: no seam an eye could see.
        let side = Int(256 * scale)
        let edges = GoldenImage.difference(mosaic, from: whole.image) { x, y in abs(x - side) <= 1 || abs(y - side) <= 1 }
        #expect(edges.largest <= 2 && edges.pixels * 20 <= 8 * side, "where the tiles meet: \(edges); in all: \(difference)")
    }

    /// A tile drawn again from the kept squares (RenderedSquares: the same grid) is the tile
    /// drawn first, but for rounding.
    @Test func tileFromKeptSquaresIsTheSame() throws {
        let basemap = try Self.basemap()
        let tile = Self.tile(at: Self.helsinki, zoom: 16)
        let first = try #require(basemap.drawTile(tile, scale: 1)).image
        _ = basemap.drawTile(tile, scale: 1)
        #expect(basemap.renderedSquares.byteCount > 0, "the second draw keeps the tile's square")
        let third = try #require(basemap.drawTile(tile, scale: 1)).image
        let difference = GoldenImage.difference(first, from: third)
        #expect(difference.largest <= 2, "\(difference)")
    }

    /// The sixteen tiles of a label block put together are the block drawn whole with the
    /// block's labels: a label across a tile edge is drawn half by each tile, whole in the map.
    @Test(arguments: [1.0, 2.0])
    func labelsAcrossTileEdgesAreWhole(_ scale: Double) throws {
        let basemap = try Self.basemap()
        let inside = Self.tile(at: Self.helsinki, zoom: 16)
        let block = LabelBlock(containing: inside)
        let corner = TileID(zoom: 16, x: block.column * block.side, y: block.row * block.side)
        let mosaic = try Self.mosaic(basemap, from: corner, tiles: block.side, scale: scale)

        let view = block.view(scale: scale)
        let labels = basemap.blockLabels(block, scale: scale)
        // The block's fills and lines, then its labels over them.
        var whole = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        var painter = MapPainter(basemap: basemap, view: view, recorder: nil)
        painter.paint(into: &whole, keepOut: [], labels: false)
        LabelPlacer.draw(labels, into: &whole, shiftedBy: (0, 0), pictures: basemap.labelPictures)

        let side = 256 * scale
        let crossing = labels.filter { label in
            let minX = label.boxes.map(\.x).min() ?? 0
            let maxX = label.boxes.map(\.maxX).max() ?? 0
            let minY = label.boxes.map(\.y).min() ?? 0
            let maxY = label.boxes.map(\.maxY).max() ?? 0
            return Int(minX / side) != Int(maxX / side) || Int(minY / side) != Int(maxY / side)
        }
        #expect(labels.count >= 10, "the block has labels to draw")
        #expect(!crossing.isEmpty, "some labels cross a tile edge, so the test shows they are whole")
        let bounds = Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        #expect(labels.allSatisfy { $0.boxes.allSatisfy(bounds.contains) }, "no label crosses the block's edge")
        let difference = GoldenImage.difference(mosaic, from: whole.image)
        #expect(difference.largest <= 2, "\(difference)")
        #expect(difference.pixels * 200 <= mosaic.width * mosaic.height, "\(difference)")
    }

    /// A tile far from the archive's data is outside it, though drawing could fall back to the
    /// archive's zoom-0 tile; tiles over the data are inside at every zoom, overzoomed too.
    @Test func tilesOutsideTheArchive() throws {
        let basemap = try Self.basemap()
        #expect(!basemap.hasData(near: TileID(zoom: 12, x: 0, y: 0)))
        #expect(!basemap.hasData(near: TileID(zoom: 16, x: 100, y: 100)))
        for zoom in [0, 5, 12, 15, 18, 22] {
            #expect(basemap.hasData(near: Self.tile(at: Self.helsinki, zoom: zoom)), "zoom \(zoom)")
        }
        #expect(!basemap.hasData(near: TileID(zoom: 3, x: 8, y: 0)), "outside the grid")
        let near = try #require(basemap.drawTile(Self.tile(at: Self.helsinki, zoom: 12), scale: 1))
        #expect(near.stats.tiles > 0)
        #expect(basemap.drawTile(TileID(zoom: 3, x: 8, y: 0), scale: 1) == nil, "outside the grid")
        #expect(basemap.drawTile(TileID(zoom: 25, x: 0, y: 0), scale: 1) == nil, "past zoom 24")
        #expect(basemap.drawTile(Self.tile(at: Self.helsinki, zoom: 12), scale: 5) == nil, "past scale 4")
    }

    /// The named road nearest a point, from the deepest tiles; nothing where no named road
    /// passes within the radius.
    @Test func nearestRoadName() throws {
        let basemap = try Self.basemap()
        // On Aleksanterinkatu, between Mikonkatu and Keskuskatu.
        let road = try #require(basemap.nearestRoad(to: LatLng(latitude: 60.16900, longitude: 24.94640)))
        #expect(road.name == "Aleksanterinkatu")
        #expect(road.meters < 25)
        #expect(basemap.nearestRoad(to: LatLng(latitude: 10, longitude: 10)) == nil)
        #expect(basemap.nearestRoad(to: LatLng(latitude: 60.16900, longitude: 24.94640), within: 0.01) == nil)
    }
}
