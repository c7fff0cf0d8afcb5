import ArgumentParser
import Foundation
import Raster

/// `tripshare gallery`: images to look at, and the committed images the drawing code makes.
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Draw images to look at: the rasteriser's strokes and text, maneuver sheets, display lists, the brand icon, the basemap.",
        subcommands: [
            GalleryRasterCommand.self, GalleryManeuversCommand.self, GalleryDisplayListsCommand.self,
            GalleryBrandIconCommand.self, GalleryBasemapCommand.self,
        ]
    )

    /// Writes `image` as `name` into `folder`, creating the folder, and says so.
    static func write(_ image: Image, _ name: String, in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
        try Data(PNGCodec.encode(image)).write(to: url)
        print("wrote \(url.path) (\(image.width)x\(image.height))")
    }
}
