import Basemap
import Foundation
import Geo
import Raster
import RasterTesting
import Testing

/// Golden pictures of real data: San Francisco (Mapbox Streets v7 tiles, the example style)
/// and Helsinki (OpenMapTiles, the built-in day and night styles), zooms 13–18, scales 1
/// and 2, with a bearing and with keep-out rectangles; and parity between the Helsinki
/// MBTiles and PMTiles archives. Every pixel is ours (labels are glyph outlines filled by
/// our rasteriser), so comparisons are exact. Recording is explicit:
///   TRIPSHARE_RECORD_GOLDENS=1 swift test --filter BasemapGoldenTests
/// writes the goldens and fails every test that wrote one, so nothing is accepted unseen.
@Suite(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
struct BasemapGoldenTests {
    static let goldens = SharedFixtures.testsDirectory.appendingPathComponent("Fixtures/goldens")
    static let helsinki = LatLng(latitude: 60.1699, longitude: 24.9410)
    static let sanFrancisco = LatLng(latitude: 37.7665, longitude: -122.4485)
    /// Where a trip's markers and ETA badge would be, in the keep-out golden.
    static let keepOut = [Rect(x: 140, y: 100, width: 48, height: 56), Rect(x: 40, y: 30, width: 90, height: 34)]

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let archive: String
        let style: String
        let zoom: Double
        var scale = 1.0
        var bearing = 0.0
        var keepOut: [Rect] = []
        var testDescription: String { name }

        var view: MapView {
            MapView(
                center: archive == "sf" ? sanFrancisco : helsinki, zoom: zoom, bearing: bearing, width: 320, height: 240,
                scale: scale)
        }
    }

    static let cases: [Case] =
        (13...18).map { Case(name: "sf-z\($0)", archive: "sf", style: "streets", zoom: Double($0)) }
        + (13...18).map { Case(name: "helsinki-day-z\($0)", archive: "helsinki", style: "openmaptiles-day", zoom: Double($0)) }
        + (13...18).map { Case(name: "helsinki-night-z\($0)", archive: "helsinki", style: "openmaptiles-night", zoom: Double($0)) }
        + [
            Case(name: "sf-z16-scale2", archive: "sf", style: "streets", zoom: 16, scale: 2),
            Case(name: "helsinki-day-z16.5-scale2", archive: "helsinki", style: "openmaptiles-day", zoom: 16.5, scale: 2),
            Case(
                name: "helsinki-night-z17-bearing-scale2", archive: "helsinki", style: "openmaptiles-night", zoom: 17, scale: 2,
                bearing: 32),
            Case(name: "helsinki-day-z16-keepout", archive: "helsinki", style: "openmaptiles-day", zoom: 16, keepOut: keepOut),
        ]

    static func basemap(_ test: Case, path: String = SharedFixtures.helsinkiPMTiles) throws -> Basemap {
        if test.archive == "sf" {
            return Basemap(source: try MemoryTiles.sanFrancisco(), style: try MemoryTiles.streetsStyle())
        }
        return Basemap(source: try TileArchive.open(path: path), style: try MapStyle.builtin(named: test.style))
    }

    static func render(_ basemap: Basemap, _ test: Case) -> Image {
        var canvas = Canvas(width: test.view.pixelWidth, height: test.view.pixelHeight)
        basemap.draw(
            into: &canvas, view: test.view,
            keepOut: test.keepOut.map { rect in
                .box(Rect(x: rect.x * test.scale, y: rect.y * test.scale, width: rect.width * test.scale, height: rect.height * test.scale))
            })
        return canvas.image
    }

    /// Each picture matches its golden exactly.
    @Test(arguments: cases) func matchesGolden(_ test: Case) throws {
        let image = Self.render(try Self.basemap(test), test)
        let options = PNGEncodingOptions(filter: .all, compressionLevel: 9, strategy: .default)
        try GoldenImage.check(
            image, golden: Self.goldens.appendingPathComponent("\(test.name).png"), encode: { try PNGCodec.encode($0, options: options) })
    }

    /// The Helsinki MBTiles and PMTiles archives give the same pictures, pixel for pixel.
    @Test(arguments: [cases[8], cases[13], cases[19]])
    func mbtilesAndPMTilesDrawAlike(_ test: Case) throws {
        let fromPMTiles = Self.render(try Self.basemap(test, path: SharedFixtures.helsinkiPMTiles), test)
        let fromMBTiles = Self.render(try Self.basemap(test, path: SharedFixtures.helsinkiMBTiles), test)
        #expect(fromPMTiles == fromMBTiles)
    }
}
