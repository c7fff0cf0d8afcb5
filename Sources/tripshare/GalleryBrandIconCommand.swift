import ArgumentParser
import Foundation
import Render

/// `tripshare gallery brand-icon`: rewrites the brand style's taxi icon from its drawing.
struct GalleryBrandIconCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "brand-icon",
        abstract: "Draw the brand style's taxi icon (Render's BrandIconArt) and write it as PNG.",
        discussion: """
            RenderTests checks that the committed styles/icons/brand-taxi@2x.png is exactly this drawing; after \
            changing the drawing, rewrite the file with this command and look at it.
            """
    )

    @Option(help: "The PNG file to write.")
    var out: String = "styles/icons/brand-taxi@2x.png"

    func run() throws {
        try Data(try BrandIconArt.png()).write(to: URL(fileURLWithPath: out))
        print("wrote \(out)")
    }
}
