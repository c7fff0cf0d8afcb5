@testable import Basemap
import Foundation
import Geo
import Raster
import Testing

/// Writes, for scripts/basemap_cairo_compare.sh, each view's fills and lines as a display
/// list (NAME.json: what pycairo replays) and our drawing of them (NAME.png: the basemap as
/// drawn, labels and attribution left out). Runs only when TRIPSHARE_BASEMAP_COMPARE_DIR
/// names a directory.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TRIPSHARE_BASEMAP_COMPARE_DIR"] != nil && SharedFixtures.available))
struct BasemapCairoReferenceTests {
    static let helsinki = LatLng(latitude: 60.1699, longitude: 24.9410)
    static let sanFrancisco = LatLng(latitude: 37.7665, longitude: -122.4485)

    struct View: Sendable, CustomTestStringConvertible {
        let name: String
        let archive: String
        let style: String
        let view: MapView
        var testDescription: String { name }
    }

    static let views: [View] = [
        View(name: "sf-z15", archive: "sf", style: "streets", view: MapView(center: sanFrancisco, zoom: 15, width: 640, height: 480)),
        View(name: "sf-z17-bearing", archive: "sf", style: "streets",
             view: MapView(center: sanFrancisco, zoom: 17, bearing: 35, width: 640, height: 480)),
        View(name: "helsinki-z15-day", archive: "helsinki", style: "openmaptiles-day",
             view: MapView(center: helsinki, zoom: 15, width: 640, height: 480)),
        View(name: "helsinki-z16-night-scale2", archive: "helsinki", style: "openmaptiles-night",
             view: MapView(center: helsinki, zoom: 16.4, width: 400, height: 300, scale: 2)),
    ]

    @Test(arguments: views) func write(_ item: View) throws {
        let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TRIPSHARE_BASEMAP_COMPARE_DIR"] ?? "/tmp")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let basemap: Basemap
        if item.archive == "sf" {
            basemap = Basemap(source: try MemoryTiles.sanFrancisco(), style: try MemoryTiles.streetsStyle())
        } else {
            basemap = Basemap(source: try TileArchive.open(path: SharedFixtures.helsinkiPMTiles), style: try MapStyle.builtin(named: item.style))
        }
        let list = basemap.geometryDisplayList(view: item.view)
        var canvas = Canvas(width: item.view.pixelWidth, height: item.view.pixelHeight)
        var painter = MapPainter(basemap: basemap, view: item.view, recorder: nil)
        painter.paint(into: &canvas, keepOut: [], labels: false)
        try JSONEncoder().encode(list).write(to: directory.appendingPathComponent("\(item.name).json"))
        try Data(PNGCodec.encode(canvas.image)).write(to: directory.appendingPathComponent("\(item.name).png"))
    }
}
