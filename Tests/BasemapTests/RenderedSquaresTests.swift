import Foundation
import Geo
import Raster
import RasterTesting
import Testing

@testable import Basemap

/// Pictures put together from kept squares (RenderedSquares) against the same pictures drawn
/// directly, on real data: the same pixels, but where a dash pattern's phase restarts at a
/// square's edge.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct RenderedSquaresTests {
    /// `center` moved to the nearest view whose pixel edges are whole device pixels of the world.
    static func aligned(_ center: LatLng, zoom: Double, width: Int, height: Int, scale: Double) -> MapView {
        let size = WebMercator.worldSize(zoom: zoom) * scale
        let world = WebMercator.worldPoint(center, zoom: 0)
        let left = (world.x / 256 * size - Double(width) / 2).rounded()
        let top = (world.y / 256 * size - Double(height) / 2).rounded()
        let snapped = WebMercator.latLng(
            x: (left + Double(width) / 2) / scale, y: (top + Double(height) / 2) / scale, zoom: zoom)
        return MapView(center: snapped, zoom: zoom, pixelWidth: width, pixelHeight: height, scale: scale)
    }

    static func draw(_ basemap: Basemap, _ view: MapView, keepOut: [Rect] = []) -> (Image, BasemapDrawStats) {
        var canvas = Canvas(width: view.pixelWidth, height: view.pixelHeight)
        let stats = basemap.draw(into: &canvas, view: view, keepOut: keepOut.map(LabelObstacle.box))
        return (canvas.image, stats)
    }

    static func basemap(_ archive: String) throws -> Basemap {
        if archive == "sf" { return Basemap(source: try MemoryTiles.sanFrancisco(), style: try MemoryTiles.streetsStyle()) }
        let style = archive == "helsinki-day" ? "openmaptiles-day" : "openmaptiles-night"
        return Basemap(source: try TileArchive.open(path: SharedFixtures.helsinkiPMTiles), style: try MapStyle.builtin(named: style))
    }

    static func center(_ archive: String) -> LatLng {
        archive == "sf" ? LatLng(latitude: 37.7665, longitude: -122.4485) : LatLng(latitude: 60.1699, longitude: 24.9410)
    }

    /// The first picture of a place is drawn directly and keeps nothing; the second keeps its
    /// squares; from then on the picture is put together from them, and it is the direct
    /// picture but for rounding (at most 2 of 255 in a channel, in few pixels).
    @Test(arguments: [("sf", 15.0, 1.0), ("sf", 16.0, 2.0), ("helsinki-day", 15.0, 1.0), ("helsinki-night", 17.0, 2.0)])
    func squaresMatchDirectDrawing(_ archive: String, _ zoom: Double, _ scale: Double) throws {
        let view = Self.aligned(Self.center(archive), zoom: zoom, width: Int(400 * scale), height: Int(300 * scale), scale: scale)
        let kept = try Self.basemap(archive)
        let (first, _) = Self.draw(kept, view)
        #expect(kept.renderedSquares.byteCount == 0, "the first picture of a place is drawn directly")
        _ = Self.draw(kept, view)
        #expect(kept.renderedSquares.byteCount > 0, "the second keeps its squares")
        let (third, stats) = Self.draw(kept, view)
        let direct = Self.draw(try Self.basemap(archive), view).0
        #expect(first == direct)
        let difference = GoldenImage.difference(third, from: direct)
        #expect(difference.largest <= 2, "\(difference)")
        #expect(difference.pixels * 50 <= view.pixelWidth * view.pixelHeight, "\(difference)")
        #expect(stats.labels > 0, "labels are placed and drawn over the squares")
    }

    /// Pictures off the grid (a fractional zoom, a bearing, a camera not on whole pixels) are
    /// always drawn directly.
    @Test func viewsOffTheGridKeepNothing() throws {
        let kept = try Self.basemap("helsinki-day")
        let aligned = Self.aligned(Self.center("helsinki-day"), zoom: 15, width: 300, height: 200, scale: 1)
        var views = [aligned, aligned, aligned]
        views[0].zoom = 15.5
        views[1].bearing = 30
        views[2].center = LatLng(latitude: aligned.center.latitude + 1e-6, longitude: aligned.center.longitude)
        for view in views {
            for _ in 0..<3 { _ = Self.draw(kept, view) }
        }
        #expect(kept.renderedSquares.byteCount == 0)
        #expect(SquareGrid(view: aligned) != nil)
    }
}
