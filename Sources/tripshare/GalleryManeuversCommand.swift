import ArgumentParser
import Foundation
import Navigation
import Render

/// `tripshare gallery maneuvers`: every maneuver icon in both lighting modes, and lanes.
struct GalleryManeuversCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maneuvers",
        abstract: "Draw the maneuver contact sheets in both lighting modes and a five-lane image (maneuvers-*.png, lanes.png)."
    )

    @Option(help: "The folder to write the images to.")
    var out: String

    func run() throws {
        for lighting in LightingMode.allCases {
            let sheet = try ManeuverSheet.image(size: .square96, scale: 1, lighting: lighting)
            try GalleryCommand.write(sheet, "maneuvers-\(lighting.rawValue).png", in: out)
        }
        let lanes = [
            Lane(laneDirections: [
                LaneDirection(laneShape: .uTurnLeft, recommended: false),
                LaneDirection(laneShape: .normalLeft, recommended: false),
            ]),
            Lane(laneDirections: [LaneDirection(laneShape: .straight, recommended: true)]),
            Lane(laneDirections: [
                LaneDirection(laneShape: .straight, recommended: true),
                LaneDirection(laneShape: .slightRight, recommended: true),
            ]),
            Lane(laneDirections: [LaneDirection(laneShape: .normalRight, recommended: false)]),
            Lane(laneDirections: [LaneDirection(laneShape: .sharpRight, recommended: false)]),
        ]
        guard let image = LaneImage.image(lanes, scale: 2) else { throw ValidationError("the lane image drew nothing") }
        try GalleryCommand.write(image, "lanes.png", in: out)
    }
}
