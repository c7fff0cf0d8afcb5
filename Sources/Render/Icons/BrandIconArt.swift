// The example custom style's vehicle icon (styles/icons/brand-taxi@2x.png): the built-in car
// in taxi colours with a roof sign, drawn at 2× by our own Raster, so the committed PNG can be
// regenerated (`tripshare gallery brand-icon`) and checked (RenderTests' BrandIconArtTests).

import Raster

/// The brand style's taxi icon.
package enum BrandIconArt {
    /// A yellow taxi from above, nose up, 36 × 72 pixels (18 × 36 at scale 1).
    package static func draw() throws -> Image {
        var roof: [VectorIcon.Shape] = [
            VectorIcon.Shape(path: .roundedRectangle(x: 5.2, y: 17.6, width: 7.6, height: 5.2, radius: 1.2), fill: .rgb(0x202124))
        ]
        for index in 0..<4 {
            let square = Path.rectangle(x: 5.8 + Double(index) * 1.7, y: 18.6 + Double(index % 2) * 1.6, width: 1.7, height: 1.6)
            roof.append(VectorIcon.Shape(path: square, fill: .white))
        }
        let taxi = VectorIcon.car(body: .rgb(0xF2A900), rim: .rgb(0x8A5A00), glass: .rgb(0x2B2F33), roof: roof)
        let list = DisplayList(width: 36, height: 72, operations: taxi.operations(transform: .scale(x: 2, y: 2)))
        return try list.render().image
    }

    /// The PNG as committed: every filter tried, the strongest compression.
    package static func png() throws -> [UInt8] {
        try PNGCodec.encode(try draw(), options: PNGEncodingOptions(filter: .all, compressionLevel: 9, strategy: .default))
    }
}
