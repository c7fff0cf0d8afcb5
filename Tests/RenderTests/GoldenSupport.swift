// Golden images for previews. Our code alone decides every pixel except FreeType's glyph
// masks, so comparisons are exact outside the text operations' boxes and tolerant inside them
// (a different FreeType may shade glyph edges differently). Recording is explicit:
//   TRIPSHARE_RECORD_GOLDENS=1 swift test --filter PreviewGoldenTests
// writes the goldens and fails every test it wrote for, so nothing is accepted unseen.

import Foundation
import JSON
import Raster
import RasterTesting
import Render
import Styling
import Testing
import TripModel

enum GoldenSupport {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A trip fixture (a JOURNEY_SHARING_V1S view).
    static func trip(_ name: String) throws -> Trip {
        try JSONCoding.decode(Trip.self, from: Array(Data(contentsOf: fixtures.appendingPathComponent("trips/\(name).json"))), root: "trip")
    }

    /// The shipped styles.
    static let library: StyleLibrary? = try? StyleLibrary.bundled()

    static func style(_ name: String) throws -> StyleSheet {
        guard let sheet = try StyleLibrary.bundled().style(named: name) else { throw StyleError(path: name, message: "no such style") }
        return sheet
    }

    /// The boxes text operations may shade, with two pixels of margin.
    static func textBoxes(_ list: DisplayList) throws -> [(x: ClosedRange<Int>, y: ClosedRange<Int>)] {
        try list.operations.compactMap { operation in
            guard case .text(let text) = operation else { return nil }
            let layout = try TextLayout(text: text.text, font: Font.named(text.fontPath), size: text.size)
            let x0 = Int((text.origin.x - 2).rounded(.down))
            let x1 = Int((text.origin.x + layout.width + 2).rounded(.up))
            let y0 = Int((text.origin.y - layout.ascent - 2).rounded(.down))
            let y1 = Int((text.origin.y + layout.descent + 2).rounded(.up))
            return (x0...x1, y0...y1)
        }
    }

    /// Compares a rendering with the golden `name`.png (or records it): exact outside text,
    /// inside text at most `textTolerance` per channel.
    static func check(_ list: DisplayList, golden name: String, textTolerance: Int = 48) throws {
        try check(try list.render().image, list: list, golden: name, textTolerance: textTolerance)
    }

    /// Compares an image drawn from `list` and more (the basemap under it: every pixel ours)
    /// with the golden `name`.png, tolerant only inside the list's text.
    static func check(_ image: Image, list: DisplayList, golden name: String, textTolerance: Int = 48) throws {
        let boxes = try textBoxes(list)
        try GoldenImage.check(
            image, golden: fixtures.appendingPathComponent("goldens/\(name).png"), tolerance: textTolerance,
            isTolerant: { x, y in boxes.contains { $0.x.contains(x) && $0.y.contains(y) } })
    }
}
