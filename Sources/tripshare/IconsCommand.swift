import ArgumentParser
import Foundation
import Navigation
import Raster
import Render

/// `tripshare icons`: maneuver icons as PNG files, one or a contact sheet of all 66.
struct IconsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icons",
        abstract: "Draw a maneuver icon, or a contact sheet of all 66, as PNG.",
        discussion: """
            Examples: tripshare icons --maneuver roundaboutLeftCounterClockwise --size square96 --scale 2 --out icon.png
                      tripshare icons --sheet maneuvers.png --lighting lowLight
            """
    )

    @Option(help: "The maneuver (a GMSNavigationManeuver name in lowerCamel, e.g. turnSlightLeft).")
    var maneuver: String?

    @Option(help: "square48 or square96 (points); default square48 for an icon, square96 for a sheet.")
    var size: String?

    @Option(help: "Screen scale, 1-3.")
    var scale = 1

    @Option(help: "normal (dark icons for light screens) or lowLight (light icons for dark screens).")
    var lighting: String = LightingMode.normal.rawValue

    @Option(help: "With --maneuver: the PNG file to write.")
    var out: String?

    @Option(help: "Write a contact sheet of every maneuver to this PNG file (size square96 unless --size is given).")
    var sheet: String?

    func validate() throws {
        if (maneuver == nil) == (sheet == nil) { throw ValidationError("give --maneuver NAME --out FILE.png, or --sheet FILE.png") }
        if maneuver != nil, out == nil { throw ValidationError("--maneuver needs --out FILE.png") }
        if let maneuver, Maneuver(rawValue: maneuver) == nil {
            throw ValidationError("unknown maneuver '\(maneuver)'; one of: \(Maneuver.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let size, ManeuverIconSize(rawValue: size) == nil { throw ValidationError("--size must be square48 or square96") }
        if !ManeuverIcon.scales.contains(scale) { throw ValidationError("--scale must be 1, 2 or 3") }
        if LightingMode(rawValue: lighting) == nil { throw ValidationError("--lighting must be normal or lowLight") }
    }

    func run() async throws {
        let lighting = LightingMode(rawValue: lighting) ?? .normal
        if let sheet {
            let iconSize = size.flatMap(ManeuverIconSize.init(rawValue:)) ?? .square96
            let image = try ManeuverSheet.image(size: iconSize, scale: scale, lighting: lighting)
            try Data(PNGCodec.encode(image)).write(to: URL(fileURLWithPath: sheet))
            print("\(sheet): \(Maneuver.allCases.count) maneuvers, \(image.width)x\(image.height)")
            return
        }
        guard let name = maneuver, let maneuver = Maneuver(rawValue: name), let out else { return }
        let iconSize = size.flatMap(ManeuverIconSize.init(rawValue:)) ?? .square48
        try Data(ManeuverIcon.png(maneuver, size: iconSize, scale: scale, lighting: lighting)).write(to: URL(fileURLWithPath: out))
        print("\(out): \(maneuver.rawValue), \(iconSize.points * scale) px")
    }
}
