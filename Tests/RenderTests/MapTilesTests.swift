import Foundation
import Geo
import Raster
import RasterTesting
import Styling
import Synchronization
import Testing
import TripModel

@testable import Basemap
@testable import Render

/// Drawn map tiles kept in memory and on disk (MapTiles), on the project's Helsinki tiles.
@Suite struct MapTilesTests {
    static func tile(zoom: Int) -> TileID {
        let world = WebMercator.worldPoint(HelsinkiSample.center, zoom: Double(zoom))
        return TileID(zoom: zoom, x: Int(world.x / 256), y: Int(world.y / 256))
    }

    /// A tile is the basemap's drawing of it as PNG, at 1x and 2x, under a tag that differs by
    /// style, address and scale; unknown styles, addresses and scales give nothing.
    @Test func tilesAreTheBasemapsDrawing() throws {
        let layer = try HelsinkiSample.basemapLayer()
        let tiles = MapTiles(layer: layer)
        #expect(tiles.styleNames == ["openmaptiles-day", "openmaptiles-night"])
        let id = Self.tile(zoom: 16)
        for scale in [1, 2] {
            guard case .picture(let png, let tag)? = tiles.tile(style: "openmaptiles-day", tile: id, scale: scale) else {
                Issue.record("no picture at scale \(scale)")
                continue
            }
            let image = try PNGCodec.decode(png)
            #expect(image.width == 256 * scale && image.height == 256 * scale)
            // Drawn again (perhaps from kept squares): the same picture but for rounding.
            let drawn = try #require(layer.basemap(named: "openmaptiles-day")?.drawTile(id, scale: Double(scale)))
            // Central Helsinki, inside the sample: its data and street names, not the background alone.
            #expect(drawn.stats.tiles > 0 && drawn.stats.labels > 0, "\(drawn.stats)")
            let difference = GoldenImage.difference(image, from: drawn.image)
            #expect(difference.largest <= 2 && difference.pixels * 100 <= image.width * image.height, "\(difference)")
            #expect(tag == tiles.tag(style: "openmaptiles-day", tile: id, scale: scale))
        }
        let tags = Set([
            tiles.tag(style: "openmaptiles-day", tile: id, scale: 1), tiles.tag(style: "openmaptiles-day", tile: id, scale: 2),
            tiles.tag(style: "openmaptiles-night", tile: id, scale: 1),
            tiles.tag(style: "openmaptiles-day", tile: TileID(zoom: 16, x: id.x + 1, y: id.y), scale: 1),
        ])
        #expect(tags.count == 4)
        #expect(tiles.tile(style: "satellite", tile: id, scale: 1) == nil)
        #expect(tiles.tile(style: "openmaptiles-day", tile: id, scale: 5) == nil)
        #expect(tiles.tile(style: "openmaptiles-day", tile: TileID(zoom: 2, x: 4, y: 0), scale: 1) == nil)
        guard case .empty? = tiles.tile(style: "openmaptiles-day", tile: TileID(zoom: 12, x: 0, y: 0), scale: 1) else {
            Issue.record("a tile far from the data is not empty")
            return
        }
    }

    /// The memory cache stays within its bound however many tiles are drawn.
    @Test func memoryStaysWithinItsBound() throws {
        let bound = 200_000
        let tiles = MapTiles(layer: try HelsinkiSample.basemapLayer(), memoryBytes: bound)
        let center = Self.tile(zoom: 17)
        var kept = 0
        for dy in -2...2 {
            for dx in -2...2 {
                if case .picture(let png, _)? = tiles.tile(
                    style: "openmaptiles-day", tile: TileID(zoom: 17, x: center.x + dx, y: center.y + dy), scale: 1)
                {
                    kept += png.count
                }
                #expect(tiles.memoryByteCount <= bound)
            }
        }
        #expect(kept > bound, "more was drawn than the bound holds, so the bound was tested")
    }

    /// With a directory, a tile drawn once is read back by the next process (another MapTiles
    /// over the same directory) instead of being drawn again; tiles of another archive or style
    /// would go to another folder.
    @Test func directoryKeepsTilesAcrossRestarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-tiles-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layer = try HelsinkiSample.basemapLayer()
        let id = Self.tile(zoom: 16)
        guard case .picture(let png, _)? = MapTiles(layer: layer, directory: directory).tile(style: "openmaptiles-night", tile: id, scale: 2)
        else {
            Issue.record("no picture")
            return
        }
        let files = try #require(FileManager.default.subpaths(atPath: directory)).filter { $0.hasSuffix(".png") }
        #expect(files.count == 1)
        let file = "\(directory)/\(try #require(files.first))"
        #expect(FileManager.default.contents(atPath: file) == Data(png))
        #expect(file.hasSuffix("/openmaptiles-night/16/\(id.x)/\(id.y)@2x.png"))
        // What the directory holds is what the next process answers: it does not draw again.
        let marker = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        try marker.write(to: URL(fileURLWithPath: file))
        guard case .picture(let again, _)? = MapTiles(layer: layer, directory: directory).tile(style: "openmaptiles-night", tile: id, scale: 2)
        else {
            Issue.record("no picture the second time")
            return
        }
        #expect(Data(again) == marker)
    }

    /// A directory that cannot be written is reported once, and tiles are still answered.
    @Test func unwritableDirectoryIsReported() throws {
        let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-not-a-dir-\(UUID().uuidString)").path
        try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let reports = Reports()
        let tiles = MapTiles(layer: try HelsinkiSample.basemapLayer(), directory: blocker) { reports.add($0) }
        let id = Self.tile(zoom: 16)
        for dx in 0..<2 {
            guard case .picture? = tiles.tile(style: "openmaptiles-day", tile: TileID(zoom: 16, x: id.x + dx, y: id.y), scale: 1) else {
                Issue.record("no picture")
                continue
            }
        }
        #expect(reports.messages.count == 1)
        #expect(reports.messages.first?.contains(blocker) == true)
    }

    /// Tiles are the map `tripshare render --center --zoom` draws: four tiles side by side are
    /// the 512-pixel picture of the same ground, but for float rounding and the attribution the
    /// picture carries in its corner (labels are left out of both: they are placed per picture).
    /// At zoom 19 (the share page's closest, far past the archive's last zoom) as at 16.
    @Test(arguments: [1, 2], [16, 19])
    func tilesAreTheRenderedMap(_ scale: Int, _ zoom: Int) throws {
        let base = try MapStyle.builtin(named: "openmaptiles-day")
        var root = try #require(try JSONSerialization.jsonObject(with: base.document) as? [String: Any])
        root["layers"] = (root["layers"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "symbol" }
        let unlabelled = try MapStyle(data: try JSONSerialization.data(withJSONObject: root), name: "unlabelled")
        let layer = try BasemapLayer(source: try HelsinkiSample.basemapLayer().source, style: unlabelled)
        let tiles = MapTiles(layer: layer)
        let corner = Self.tile(zoom: zoom)
        // The picture's centre: the corner shared by the four tiles from `corner`.
        let center = WebMercator.latLng(x: Double(corner.x + 1) * 256, y: Double(corner.y + 1) * 256, zoom: Double(zoom))
        let options = try PreviewOptions(parameters: [
            "center": "\(center.latitude),\(center.longitude)", "zoom": "\(zoom)", "width": "512", "height": "512", "scale": "\(scale)",
        ])
        let picture = try TripPreview(
            trip: Trip(name: ""), style: try StyleLibrary.bundled().defaultStyle, options: options, now: Timestamp(Date()), basemap: layer
        ).render().image
        let side = 256 * scale
        #expect(picture.width == 2 * side)
        var differing = 0
        var largest = 0
        for row in 0..<2 {
            for column in 0..<2 {
                let id = TileID(zoom: zoom, x: corner.x + column, y: corner.y + row)
                guard case .picture(let png, _)? = tiles.tile(style: "unlabelled", tile: id, scale: scale) else {
                    Issue.record("no tile \(id)")
                    continue
                }
                let tile = try PNGCodec.decode(png)
                for y in 0..<side {
                    for x in 0..<side {
                        let (px, py) = (column * side + x, row * side + y)
                        // The attribution: the bottom-right corner of the picture.
                        if px > picture.width - 280 * scale, py > picture.height - 24 * scale { continue }
                        let a = tile.pixel(x: x, y: y)
                        let b = picture.pixel(x: px, y: py)
                        guard (a.red, a.green, a.blue) != (b.red, b.green, b.blue) else { continue }
                        differing += 1
                        largest = max(largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                    }
                }
            }
        }
        // The same pixels but for float rounding: at most 2 of 255, in a few pixels.
        #expect(largest <= 2 && differing * 250 <= picture.width * picture.height, "\(differing) pixels differ by at most \(largest)")
    }

    /// Style files get URL-safe names.
    @Test func styleFileNames() {
        #expect(MapTiles.urlName("openmaptiles-day") == "openmaptiles-day")
        #expect(MapTiles.urlName("/etc/maps/My Style v2.json") == "My-Style-v2")
        #expect(MapTiles.urlName("/etc/maps/.json") == "style")
    }
}

/// Messages reported, collected thread-safely.
private final class Reports: Sendable {
    private let list = Mutex<[String]>([])
    var messages: [String] { list.withLock { $0 } }
    func add(_ message: String) { list.withLock { $0.append(message) } }
}
