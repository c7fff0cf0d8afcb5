import ArgumentParser

/// `tripshare import`: turns data recorded elsewhere into tripshare inputs.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn recorded data into tripshare inputs (fixture scenarios, routes).",
        subcommands: [ImportFleetLogCommand.self]
    )
}
