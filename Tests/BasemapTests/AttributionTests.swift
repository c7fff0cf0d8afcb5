import Geo
import Raster
import Testing

@testable import Basemap

/// The attribution every basemap picture carries is whole at every size (DESIGN §7): smaller
/// text first, then more lines, never cut.
@Suite struct AttributionTests {
    static let text = "© OpenStreetMap contributors © OpenMapTiles"

    @Test(arguments: [90, 120, 160, 200, 320, 640, 1280], [1.0, 2.0, 3.0])
    func wholeAtEverySize(width: Int, scale: Double) throws {
        let view = MapView(center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 15, width: width, height: 150, scale: scale)
        let plate = try #require(Attribution.plate(text: Self.text, view: view, background: .white))
        let shown = plate.lines.map(\.text).joined(separator: " ")
        #expect(shown == Self.text, "at \(width) px: \(plate.lines.map(\.text))")
        let picture = Rect(x: 0, y: 0, width: Double(view.pixelWidth), height: Double(view.pixelHeight))
        #expect(picture.contains(plate.box))
        for line in plate.lines {
            #expect(line.origin.x >= plate.box.x && line.origin.x + line.layout.width <= plate.box.maxX + 1e-9)
        }
        #expect(plate.lines.count == 1 || width < 320, "a wide picture keeps one line")
    }

    /// Regression (issue 33): at 160 px the attribution was cut to "© OpenStreetMap…".
    @Test func narrowPictureWrapsInsteadOfCutting() throws {
        let view = MapView(center: LatLng(latitude: 60.17, longitude: 24.94), zoom: 15, width: 160, height: 120)
        let plate = try #require(Attribution.plate(text: Self.text, view: view, background: .white))
        #expect(plate.lines.count >= 2)
        #expect(!plate.lines.contains { $0.text.contains("…") })
    }
}
