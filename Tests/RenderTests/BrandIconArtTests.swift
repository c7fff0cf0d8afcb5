// The example custom style's vehicle icon (styles/icons/brand-taxi@2x.png): the built-in car
// in taxi colours with a roof sign, drawn at 2× by our own Raster, so the committed PNG can
// be regenerated and checked:
//   TRIPSHARE_WRITE_STYLE_ICONS=1 swift test --filter BrandIconArtTests
// rewrites it (and fails, so a rewrite is never silent).

import Foundation
import Raster
@testable import Render
import Testing

enum BrandIconArt {
    /// A yellow taxi from above, nose up, 36 × 72 pixels (18 × 36 at scale 1).
    static func draw() throws -> Image {
        var roof: [VectorIcon.Shape] = [
            VectorIcon.Shape(path: .roundedRectangle(x: 5.2, y: 17.6, width: 7.6, height: 5.2, radius: 1.2), fill: .rgb(0x202124)),
        ]
        for index in 0..<4 {
            roof.append(VectorIcon.Shape(path: .rectangle(x: 5.8 + Double(index) * 1.7, y: 18.6 + Double(index % 2) * 1.6, width: 1.7, height: 1.6),
                                         fill: .white))
        }
        let taxi = VectorIcon.car(body: .rgb(0xF2A900), rim: .rgb(0x8A5A00), glass: .rgb(0x2B2F33), roof: roof)
        let list = DisplayList(width: 36, height: 72, operations: taxi.operations(transform: .scale(x: 2, y: 2)))
        return try list.render().image
    }

    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Styling/styles/icons/brand-taxi@2x.png")
}

@Suite struct BrandIconArtTests {
    /// The committed brand icon is exactly what the drawing code makes (or is rewritten on request).
    @Test func committedIconMatchesDrawing() throws {
        let drawn = try BrandIconArt.draw()
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
