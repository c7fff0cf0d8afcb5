// The committed brand icon (styles/icons/brand-taxi@2x.png) is exactly what BrandIconArt
// draws; `tripshare gallery brand-icon` rewrites it after a change to the drawing.

import Foundation
import Raster
import Render
import Testing

@Suite struct BrandIconArtTests {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Styling/styles/icons/brand-taxi@2x.png")

    /// The committed brand icon is exactly what the drawing code makes.
    @Test func committedIconMatchesDrawing() throws {
        let committed = try PNGCodec.decode(Array(Data(contentsOf: Self.url)))
        #expect(committed == (try BrandIconArt.draw()))
    }
}
