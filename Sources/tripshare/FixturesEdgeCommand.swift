import ArgumentParser
import Foundation
import Scenarios

/// `tripshare fixtures edge`: the hand-made edge-case scenarios.
struct FixturesEdgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edge",
        abstract: "Write the hand-made edge-case fixture scenarios (basic-trip, shared-ride, reroute, ...).",
        discussion: """
            Writes the scenario.json of each edge-case fixture: short drives on a made-up street grid in Mountain View, \
            as the REST calls a driver app and a provider's backend make (a shared ride, stops on the way, a \
            cancellation, a car going offline, a reroute, night and custom styles). Record or refresh their goldens \
            afterwards with `tripshare fixtures run DIR/NAME --update`, and look at every image before committing it.
            """
    )

    @Option(help: "The folder the fixture folders are written into.")
    var out: String = "Tests/Fixtures"

    func run() async throws {
        let folder = URL(fileURLWithPath: out)
        for scenario in try EdgeScenarios.all() {
            let directory = folder.appendingPathComponent(scenario.name)
            try scenario.write(to: directory)
            print("Wrote \(directory.appendingPathComponent("scenario.json").path)")
        }
    }
}
