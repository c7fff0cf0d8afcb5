import ArgumentParser
import Foundation
import Raster

/// `tripshare gallery display-lists`: display lists as our rasteriser draws them, beside the
/// lists themselves, for IntegrationTests/cairo/cairo_compare.py to replay with Cairo.
struct GalleryDisplayListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display-lists",
        abstract: "Draw display-list files and write NAME.json and NAME.png for each (for IntegrationTests/cairo/cairo_compare.py).",
        discussion: """
            Example: tripshare gallery display-lists Tests/RasterTests/Fixtures/*.json --out /tmp/cmp
            then: IntegrationTests/cairo/cairo_compare.py /tmp/cmp/route-2k.json /tmp/cmp/route-2k.png --diff /tmp/cmp/route-2k-diff.png
            """
    )

    @Argument(help: "Display-list JSON files (as `tripshare render --display-list` and scripts/generate/route_scenes.py write them).")
    var lists: [String]

    @Option(help: "The folder to write to.")
    var out: String

    func run() throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for path in lists {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let list: DisplayList
            do {
                list = try JSONDecoder().decode(DisplayList.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw ValidationError("\(path) is not a display list: \(error)")
            }
            try JSONEncoder().encode(list).write(to: URL(fileURLWithPath: out).appendingPathComponent("\(name).json"))
            try GalleryCommand.write(try list.render().image, "\(name).png", in: out)
        }
    }
}
