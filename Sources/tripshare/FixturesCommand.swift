import ArgumentParser

/// `tripshare fixtures`: replays and checks trip fixtures.
struct FixturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Replay trip fixtures and compare them with their goldens; make new ones.",
        subcommands: [FixturesRunCommand.self, FixturesDriveCommand.self, FixturesEdgeCommand.self, FixturesPreviewTripsCommand.self]
    )
}
