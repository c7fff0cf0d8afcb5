// The example custom style's vehicle icon (styles/icons/brand-taxi@2x.png), drawn with our
// own Raster so that the committed PNG can be regenerated and checked:
//   TRIPSHARE_WRITE_STYLE_ICONS=1 swift test --filter BrandIconArtTests
// rewrites it (and fails, so a rewrite is never silent).

import Foundation
import Raster
import Testing

/// A yellow taxi seen from above, nose up, at 2× (36 × 72 pixels for 18 × 36 at scale 1).
enum BrandIconArt {
    static func draw() -> Image {
        var canvas = Canvas(width: 36, height: 72)
        let s = Transform.scale(x: 2, y: 2)
        func fill(_ path: Path, _ hex: String) {
            canvas.fill(path, color: Color(hex: hex) ?? .black, transform: s)
        }
        // Soft shadow, body, roof sign, glass, lights.
        fill(.roundedRectangle(x: 0.2, y: 0.6, width: 17.6, height: 35.2, radius: 7.2), "#00000022")
        fill(.roundedRectangle(x: 1.4, y: 1, width: 15.2, height: 34, radius: 6), "#F2A900")
        canvas.stroke(.roundedRectangle(x: 1.4, y: 1, width: 15.2, height: 34, radius: 6),
                      style: StrokeStyle(width: 0.9), color: Color(hex: "#8A5A00") ?? .black, transform: s)
        var windshield = Path()
        windshield.move(to: Point(3.6, 10.4))
        windshield.quad(to: Point(14.4, 10.4), control: Point(9, 8.2))
        windshield.line(to: Point(13, 14.4))
        windshield.quad(to: Point(5, 14.4), control: Point(9, 13.6))
        windshield.close()
        fill(windshield, "#2B2F33")
        var rear = Path()
        rear.move(to: Point(5, 26.4))
        rear.quad(to: Point(13, 26.4), control: Point(9, 25.8))
        rear.line(to: Point(14, 29.4))
        rear.quad(to: Point(4, 29.4), control: Point(9, 30.4))
        rear.close()
        fill(rear, "#2B2F33")
        fill(.roundedRectangle(x: 5.2, y: 17.6, width: 7.6, height: 5.2, radius: 1.2), "#202124")
        // A checker band on the roof sign.
        for index in 0..<4 {
            fill(.rectangle(x: 5.8 + Double(index) * 1.7, y: 18.6 + Double(index % 2) * 1.6, width: 1.7, height: 1.6), "#FFFFFF")
        }
        fill(.roundedRectangle(x: 3.4, y: 1.9, width: 3.2, height: 1.5, radius: 0.7), "#FFF4C2")
        fill(.roundedRectangle(x: 11.4, y: 1.9, width: 3.2, height: 1.5, radius: 0.7), "#FFF4C2")
        fill(.roundedRectangle(x: 3.4, y: 32.8, width: 3.2, height: 1.3, radius: 0.6), "#C5221F")
        fill(.roundedRectangle(x: 11.4, y: 32.8, width: 3.2, height: 1.3, radius: 0.6), "#C5221F")
        return canvas.image
    }

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Styling/styles/icons/brand-taxi@2x.png")
}

@Suite struct BrandIconArtTests {
    /// The committed brand icon is exactly what the drawing code makes (or is rewritten on request).
    @Test func committedIconMatchesDrawing() throws {
        let drawn = BrandIconArt.draw()
        if ProcessInfo.processInfo.environment["TRIPSHARE_WRITE_STYLE_ICONS"] != nil {
            try Data(PNGCodec.encode(drawn, options: PNGEncodingOptions(filter: .all, compressionLevel: 9, strategy: .default)))
                .write(to: BrandIconArt.url)
            Issue.record("rewrote \(BrandIconArt.url.path); look at it, then run again without TRIPSHARE_WRITE_STYLE_ICONS")
            return
        }
        let committed = try PNGCodec.decode(Array(Data(contentsOf: BrandIconArt.url)))
        #expect(committed == drawn)
    }
}
