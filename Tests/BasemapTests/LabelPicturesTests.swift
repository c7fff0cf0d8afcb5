import Foundation
import Geo
import Raster
import RasterTesting
import Testing

@testable import Basemap

/// Pictures of labels, kept and copied onto later pictures that place the same label at the
/// same spot within a pixel.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct LabelPicturesTests {
    /// A view of central Helsinki moved by whole pixels reuses the pictures of the labels it
    /// places as before, and is the picture a basemap that kept nothing draws (but for the
    /// rounding of kept squares, RenderedSquaresTests).
    @Test(arguments: [1.0, 2.0])
    func movedViewsReuseLabelPictures(scale: Double) throws {
        func basemap() throws -> Basemap {
            Basemap(source: try TileArchive.open(path: SharedFixtures.helsinkiPMTiles), style: try MapStyle.builtin(named: "openmaptiles-day"))
        }
        let first = RenderedSquaresTests.aligned(
            LatLng(latitude: 60.1699, longitude: 24.9410), zoom: 16, width: Int(400 * scale), height: Int(300 * scale), scale: scale)
        let kept = try basemap()
        let (_, stats) = RenderedSquaresTests.draw(kept, first)
        let bytes = kept.labelPictures.byteCount
        #expect(stats.labels > 3 && bytes > 0)
        _ = RenderedSquaresTests.draw(kept, first)
        #expect(kept.labelPictures.byteCount == bytes, "the same view draws no new label picture")

        let moved = RenderedSquaresTests.aligned(
            WebMercator.latLng(
                x: WebMercator.worldPoint(first.center, zoom: 16).x + 12 / scale, y: WebMercator.worldPoint(first.center, zoom: 16).y + 5 / scale,
                zoom: 16),
            zoom: 16, width: first.pixelWidth, height: first.pixelHeight, scale: scale)
        let (reused, movedStats) = RenderedSquaresTests.draw(kept, moved)
        #expect(movedStats.labels > 3)
        #expect(kept.labelPictures.byteCount < 2 * bytes, "most labels of the moved view are the pictures kept before")
        let difference = GoldenImage.difference(reused, from: RenderedSquaresTests.draw(try basemap(), moved).0)
        #expect(difference.largest <= 2, "\(difference)")

        // Moved by part of a pixel, the labels are drawn anew where they now fall (off the grid,
        // the whole picture is drawn directly, so it is exactly a fresh basemap's).
        var nudged = first
        nudged.center = WebMercator.latLng(
            x: WebMercator.worldPoint(first.center, zoom: 16).x + 0.3 / scale, y: WebMercator.worldPoint(first.center, zoom: 16).y + 0.6 / scale,
            zoom: 16)
        #expect(RenderedSquaresTests.draw(kept, nudged).0 == RenderedSquaresTests.draw(try basemap(), nudged).0)
    }
}
