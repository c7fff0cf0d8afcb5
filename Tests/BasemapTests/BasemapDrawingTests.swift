import Foundation
import Geo
import Raster
import Synchronization
import Testing

@testable import Basemap

/// Drawing on synthetic tiles whose content is known: seams, overzoom, fallback to lower
/// zooms, damaged tiles, the cache bound, and label placement.
@Suite struct BasemapDrawingTests {
    static let water = Color(red: 40, green: 90, blue: 160)
    static let parentColor = Color(red: 30, green: 140, blue: 60)
    static let text = Color(red: 255, green: 0, blue: 0)

    static let style: MapStyle = {
        let json = """
            {"version": 8, "sources": {"v": {"type": "vector", "url": "mbtiles://anything"}},
             "layers": [
              {"id": "bg", "type": "background", "paint": {"background-color": "#FFFFFF"}},
              {"id": "water", "type": "fill", "source": "v", "source-layer": "water",
               "paint": {"fill-color": ["match", ["get", "class"], "parent", "\(parentColor.hex)", "\(water.hex)"]}},
              {"id": "roads", "type": "line", "source": "v", "source-layer": "roads",
               "paint": {"line-color": "#000000", "line-width": 6}, "layout": {"line-cap": "round"}},
              {"id": "names", "type": "symbol", "source": "v", "source-layer": "roads",
               "layout": {"text-field": "{name}", "symbol-placement": "line", "text-size": 14},
               "paint": {"text-color": "\(text.hex)"}}
             ]}
            """
        do {
            return try MapStyle(data: Data(json.utf8), name: "synthetic")
        } catch {
            preconditionFailure("\(error)")
        }
    }()

    /// A source from tiles; zoom range from the tiles.
    static func source(_ tiles: [TileID: [UInt8]]) -> MemoryTiles {
        MemoryTiles(
            metadata: TileArchiveMetadata(
                format: .mvt, minZoom: tiles.keys.map(\.zoom).min() ?? 0,
                maxZoom: tiles.keys.map(\.zoom).max() ?? 0), tiles: tiles)
    }

    /// Four z14 tiles, each wholly water (with a buffer), meeting at one corner.
    static let waterTiles: [TileID: [UInt8]] = {
        var tiles: [TileID: [UInt8]] = [:]
        for dx in 0...1 {
            for dy in 0...1 { tiles[TileID(zoom: 14, x: 9326 + dx, y: 4740 + dy)] = TileBuilder.tile(["water": [TileBuilder.square()]]) }
        }
        return tiles
    }()

    /// The location of the corner the four tiles share.
    static let corner = WebMercator.latLng(x: 9327 * 256, y: 4741 * 256, zoom: 14)

    static func render(_ basemap: Basemap, _ view: MapView, keepOut: [Rect] = []) -> (Canvas, BasemapDrawStats) {
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        let stats = basemap.draw(into: &canvas, view: view, keepOut: keepOut.map(LabelObstacle.box))
        return (canvas, stats)
    }

    /// Shared tile edges leave no seam: four water tiles, rotated, at a fractional zoom and
    /// scale 2, give water in every pixel (the attribution corner aside).
    @Test(arguments: [0.0, 27.0, 90.0])
    func noSeams(bearing: Double) {
        let basemap = Basemap(source: Self.source(Self.waterTiles), style: Self.style)
        let view = MapView(center: Self.corner, zoom: 15.37, bearing: bearing, width: 200, height: 150, scale: 2)
        let (canvas, stats) = Self.render(basemap, view)
        #expect(stats.tiles == 4 && stats.tileZoom == 14)
        var wrong = 0
        for y in 0..<(view.pixelHeight - 60) {
            for x in 0..<view.pixelWidth where canvas.pixel(x: x, y: y) != Self.water.premultiplied { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels are not water")
    }

    /// A road crossing a tile edge is as dark at the edge as elsewhere (no gap, no double
    /// blending of its semi-covered edge pixels).
    @Test func linesCrossTileEdgesWithoutSeam() {
        var tiles: [TileID: [UInt8]] = [:]
        // The same road in both tiles, running on into each tile's buffer.
        tiles[TileID(zoom: 14, x: 9326, y: 4740)] = TileBuilder.tile([
            "roads": [
                TileBuilder.Feature(type: .lineString, parts: [[(1000, 3900), (4096 + 200, 3900 + 57)]])
            ]
        ])
        tiles[TileID(zoom: 14, x: 9327, y: 4740)] = TileBuilder.tile([
            "roads": [
                TileBuilder.Feature(type: .lineString, parts: [[(1000 - 4096, 3900), (200, 3900 + 57)]])
            ]
        ])
        let basemap = Basemap(source: Self.source(tiles), style: Self.style)
        let view = MapView(
            center: WebMercator.latLng(x: 9327 * 256, y: 4740 * 256 + 244, zoom: 14), zoom: 16.2, width: 240,
            height: 120)
        let (canvas, _) = Self.render(basemap, view)
        // Sum the darkness of every column across the road (the edge is at x = 120; the road
        // ends at 177; the attribution lies below row 95): equal everywhere along it.
        let columns = (20..<170).map { x in (0..<90).reduce(0) { $0 + 255 - Int(canvas.pixel(x: x, y: $1).red) } }
        let spread = (columns.max() ?? 0) - (columns.min() ?? 0)
        #expect((columns.min() ?? 0) > 255 * 5, "the road is drawn")
        #expect(spread <= 6, "column darkness varies by \(spread) (a seam at the tile edge?)")
    }

    /// Past the archive's maximum zoom, its deepest tiles are drawn, scaled up.
    @Test func overzoom() {
        let basemap = Basemap(source: Self.source(Self.waterTiles), style: Self.style)
        let (canvas, stats) = Self.render(basemap, MapView(center: Self.corner, zoom: 19.5, width: 100, height: 100))
        #expect(stats.tileZoom == 14)
        #expect(stats.tiles == 4)
        #expect(canvas.pixel(x: 10, y: 10) == Self.water.premultiplied)
    }

    /// Squares whose tile is missing are filled from the nearest lower zoom that has one,
    /// clipped to the square, even a feature lying wholly inside the parent tile (it must not
    /// cover the squares that have tiles of their own).
    @Test func missingTilesComeFromLowerZooms() {
        var tiles: [TileID: [UInt8]] = [:]
        tiles[TileID(zoom: 13, x: 4663, y: 2370)] = TileBuilder.tile([
            "water": [TileBuilder.square(buffer: -8, properties: ["class": "parent"])]
        ])
        tiles[TileID(zoom: 14, x: 9326, y: 4740)] = TileBuilder.tile(["water": [TileBuilder.square()]])
        let basemap = Basemap(source: Self.source(tiles), style: Self.style)
        let view = MapView(center: Self.corner, zoom: 15.5, width: 200, height: 200)
        let (canvas, stats) = Self.render(basemap, view)
        #expect(stats.tiles == 4 && stats.tilesMissing == 0)
        #expect(canvas.pixel(x: 20, y: 20) == Self.water.premultiplied, "the z14 tile itself, top left")
        #expect(canvas.pixel(x: 180, y: 20) == Self.parentColor.premultiplied, "top right from z13")
        #expect(canvas.pixel(x: 20, y: 150) == Self.parentColor.premultiplied, "bottom left from z13")
    }

    /// A damaged tile is skipped and reported once; the rest still draws.
    @Test func damagedTilesAreSkippedAndReportedOnce() {
        var tiles = Self.waterTiles
        tiles[TileID(zoom: 14, x: 9327, y: 4741)] = [0x1A, 0x05, 0x78, 0x02, 0x0A, 0xFF, 0x00]
        let reports = Reports()
        let basemap = Basemap(source: Self.source(tiles), style: Self.style, report: reports.add)
        let view = MapView(center: Self.corner, zoom: 15.5, width: 200, height: 200)
        let (canvas, stats) = Self.render(basemap, view)
        _ = Self.render(basemap, view)
        #expect(stats.tilesFailed == 1)
        #expect(reports.messages.count == 1)
        #expect(reports.messages.first?.contains("tile 14/9327/4741") == true, "\(reports.messages)")
        #expect(canvas.pixel(x: 20, y: 20) == Self.water.premultiplied)
        #expect(canvas.pixel(x: 180, y: 150) == Color.white.premultiplied, "the damaged square shows the background")
    }

    /// The cache keeps decoded tiles within its bound and drawing still works past it.
    @Test func cacheIsBounded() {
        let bounded = Basemap(source: Self.source(Self.waterTiles), style: Self.style, cacheBytes: 1500)
        let view = MapView(center: Self.corner, zoom: 15.37, width: 200, height: 150)
        let (canvas, stats) = Self.render(bounded, view)
        #expect(stats.tiles == 4)
        #expect(bounded.cache.byteCount <= 1500)
        #expect(canvas.pixel(x: 10, y: 10) == Self.water.premultiplied)
        let roomy = Basemap(source: Self.source(Self.waterTiles), style: Self.style)
        _ = Self.render(roomy, view)
        let (_, warm) = Self.render(roomy, view)
        #expect(warm.tilesDecoded == 0, "a warm draw decodes nothing")
    }

    /// A cold draw loads the tiles it lacks together (several at once), reading each once,
    /// and draws exactly what a draw from the cached tiles draws.
    @Test func coldDrawLoadsEachTileOnce() throws {
        let tiles = try MemoryTiles.sanFrancisco()
        let counting = CountingTiles(tiles)
        let basemap = Basemap(source: counting, style: try MemoryTiles.streetsStyle())
        let view = MapView(center: LatLng(latitude: 37.7665, longitude: -122.4485), zoom: 15.5, width: 640, height: 480)
        let (cold, coldStats) = Self.render(basemap, view)
        #expect(coldStats.tiles >= 4, "the view spans several tiles")
        #expect(coldStats.tilesDecoded == coldStats.tiles)
        #expect(counting.reads.count == coldStats.tiles)
        #expect(counting.reads.values.allSatisfy { $0 == 1 }, "\(counting.reads)")
        let (warm, warmStats) = Self.render(basemap, view)
        #expect(warmStats.tilesDecoded == 0)
        #expect(counting.reads.values.allSatisfy { $0 == 1 }, "a warm draw reads nothing")
        #expect(cold.image == warm.image)
    }

    /// One basemap serves concurrent draws: each gives the picture a lone draw gives.
    @Test func concurrentDrawsAgree() {
        let basemap = Basemap(source: Self.source(Self.roadTiles), style: Self.style, cacheBytes: 4000)
        let (alone, _) = Self.render(basemap, Self.roadView)
        let images = Mutex<[Image]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let (canvas, _) = Self.render(basemap, Self.roadView)
            images.withLock { $0.append(canvas.image) }
        }
        #expect(images.withLock { $0.count } == 8)
        #expect(images.withLock { $0.allSatisfy { $0 == alone.image } })
    }

    // MARK: - Labels

    /// Roads for label tests, around the edge between two z14 tiles: Kaivokatu across the
    /// edge and again elsewhere, Aleksanterinkatu, and Esplanadi running right to left.
    static let roadTiles: [TileID: [UInt8]] = {
        func road(_ name: String, _ points: [(Int, Int)]) -> TileBuilder.Feature {
            TileBuilder.Feature(type: .lineString, parts: [points], properties: ["name": name])
        }
        return [
            TileID(zoom: 14, x: 9326, y: 4740): TileBuilder.tile([
                "roads": [
                    road("Kaivokatu", [(2900, 1600), (4096 + 300, 1600)]),
                    road("Aleksanterinkatu", [(2900, 2100), (4000, 2100)]),
                ]
            ]),
            TileID(zoom: 14, x: 9327, y: 4740): TileBuilder.tile([
                "roads": [
                    road("Kaivokatu", [(-1196, 1600), (1200, 1600)]),
                    road("Kaivokatu", [(200, 2350), (1200, 2350)]),
                    road("Esplanadi", [(1200, 2600), (100, 2600)]),
                ]
            ]),
        ]
    }()

    /// 600×300 around the two tiles' shared edge (visible rows 1405–2691 of the tiles).
    static let roadView = MapView(
        center: WebMercator.latLng(x: 9327 * 256, y: 4740 * 256 + 128, zoom: 14), zoom: 15.9, width: 600,
        height: 300)

    /// One label per name, every glyph inside the picture, none over another.
    @Test func oneLabelPerNameWithoutOverlaps() throws {
        let basemap = Basemap(source: Self.source(Self.roadTiles), style: Self.style)
        var canvas = Canvas(width: Self.roadView.pixelWidth, height: Self.roadView.pixelHeight)
        let labels = basemap.placedLabels(into: &canvas, view: Self.roadView, keepOut: [])
        #expect(labels.map(\.text).sorted() == ["Aleksanterinkatu", "Esplanadi", "Kaivokatu"])
        let bounds = Rect(x: 0, y: 0, width: 600, height: 300)
        let boxes = labels.flatMap { label in label.boxes.map { (label.text, $0) } }
        for (text, box) in boxes {
            #expect(bounds.contains(box), "\(text) leaves the picture")
            for (other, second) in boxes where other != text { #expect(!box.intersects(second), "\(text) overlaps \(other)") }
        }
    }

    /// Labels read left to right whichever way their road runs.
    @Test func labelsAreUpright() throws {
        let basemap = Basemap(source: Self.source(Self.roadTiles), style: Self.style)
        var canvas = Canvas(width: Self.roadView.pixelWidth, height: Self.roadView.pixelHeight)
        let labels = basemap.placedLabels(into: &canvas, view: Self.roadView, keepOut: [])
        let reversed = try #require(labels.first { $0.text == "Esplanadi" })
        #expect((reversed.boxes.first?.x ?? 0) < (reversed.boxes.last?.x ?? 0), "the first glyph is on the left")
        let forward = try #require(labels.first { $0.text == "Aleksanterinkatu" })
        #expect((forward.boxes.first?.x ?? 0) < (forward.boxes.last?.x ?? 0))
    }

    /// No label is drawn over a keep-out rectangle: not one text pixel inside it.
    @Test func keepOutRectanglesStayClear() throws {
        let basemap = Basemap(source: Self.source(Self.roadTiles), style: Self.style)
        var scratch = Canvas(width: 600, height: 300)
        let free = try #require(
            basemap.placedLabels(into: &scratch, view: Self.roadView, keepOut: [])
                .first { $0.text == "Aleksanterinkatu" })
        // Keep out exactly where Aleksanterinkatu went, and a badge-sized box elsewhere.
        let blocked = free.boxes.reduce(free.boxes[0]) { $0.union($1) }
        let keepOut = [blocked, Rect(x: 20, y: 20, width: 80, height: 40)]
        var canvas = Canvas(width: 600, height: 300)
        let labels = basemap.placedLabels(into: &canvas, view: Self.roadView, keepOut: keepOut.map(LabelObstacle.box))
        for label in labels {
            for box in label.boxes {
                let clear = !keepOut.contains { $0.intersects(box) }
                #expect(clear, "\(label.text) overlaps a keep-out")
            }
        }
        var red = 0
        for rect in keepOut {
            for y in Int(rect.y)..<Int(rect.maxY) {
                for x in Int(rect.x)..<Int(rect.maxX) {
                    let pixel = canvas.pixel(x: x, y: y)
                    if pixel.red > 150 && pixel.green < 100 { red += 1 }
                }
            }
        }
        #expect(red == 0, "\(red) text pixels inside keep-out rectangles")
        // Blocking the whole picture leaves no label at all.
        let none = basemap.placedLabels(into: &canvas, view: Self.roadView, keepOut: [.box(Rect(x: 0, y: 0, width: 600, height: 300))])
        #expect(none.isEmpty)
    }

    /// The attribution is drawn in the bottom-right corner, legible on light and dark maps.
    @Test func attributionInTheCorner() throws {
        let basemap = Basemap(source: Self.source([:]), style: Self.style)
        let (canvas, _) = Self.render(basemap, MapView(center: Self.corner, zoom: 15.37, width: 300, height: 150))
        // Dark text pixels in the bottom-right plate, none in the bottom-left corner.
        func darkPixels(_ xs: Range<Int>) -> Int {
            var count = 0
            for y in 135..<148 { for x in xs where canvas.pixel(x: x, y: y).red < 120 { count += 1 } }
            return count
        }
        #expect(darkPixels(150..<297) > 40)
        #expect(darkPixels(0..<100) == 0)
        #expect(basemap.attribution == "© OpenStreetMap contributors")
    }

    /// Given the part of the picture that stays visible (a screen's panels cover the rest),
    /// the attribution goes in that part's bottom-right corner instead of the canvas's.
    @Test func attributionInTheVisibleArea() throws {
        let basemap = Basemap(source: Self.source([:]), style: Self.style)
        let view = MapView(center: Self.corner, zoom: 15.37, width: 300, height: 150)
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        basemap.draw(into: &canvas, view: view, attributionArea: Rect(x: 0, y: 20, width: 300, height: 80))
        func darkPixels(_ rows: Range<Int>) -> Int {
            var count = 0
            for y in rows { for x in 150..<297 where canvas.pixel(x: x, y: y).red < 120 { count += 1 } }
            return count
        }
        #expect(darkPixels(85..<98) > 40)
        #expect(darkPixels(100..<150) == 0)
    }
}

/// A tile source that counts the reads of each tile.
final class CountingTiles: TileSource {
    let tiles: MemoryTiles
    private let counts = Mutex<[TileID: Int]>([:])
    var metadata: TileArchiveMetadata { tiles.metadata }
    var identity: String { tiles.identity }
    /// Reads so far, per tile.
    var reads: [TileID: Int] { counts.withLock { $0 } }

    init(_ tiles: MemoryTiles) { self.tiles = tiles }

    func tileData(_ id: TileID) throws(BasemapError) -> [UInt8]? {
        counts.withLock { $0[id, default: 0] += 1 }
        return try tiles.tileData(id)
    }
}
