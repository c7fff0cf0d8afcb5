import ArgumentParser
import Foundation
import JSON
import TripModel

/// `tripshare fixtures preview-trips`: the trip fixtures the preview tests draw.
struct FixturesPreviewTripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview-trips",
        abstract: "Write the trip fixtures of the preview tests from the shared Fleet Engine log and OSRM route.",
        discussion: """
            Replays ../shared/fixtures/fleet-engine-logs/two-trips-bay-area.json through the API on the log's clock \
            and writes its second trip's JOURNEY_SHARING_V1S view at 17:52:30Z, 17:56:30Z and 18:01:00Z, two fixtures \
            derived from them, and two trips along the OSRM route (Tests/RenderTests/Fixtures/README.md says which is \
            which). Look at the preview goldens after rewriting them.
            Example: tripshare fixtures preview-trips --out Tests/RenderTests/Fixtures/trips
            """
    )

    @Option(help: "The shared data folder (default ../shared/fixtures).")
    var shared: String = "../shared/fixtures"

    @Option(help: "The folder to write the trips to.")
    var out: String

    func run() async throws {
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, trip) in try await PreviewTripFixtures.all(shared: URL(fileURLWithPath: shared)) {
            let file = folder.appendingPathComponent("\(name).json")
            try JSONCoding.encodePretty(trip).write(to: file)
            print("wrote \(file.path)")
        }
    }
}
