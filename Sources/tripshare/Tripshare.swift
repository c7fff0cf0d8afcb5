import ArgumentParser
import TripServer

/// The `tripshare` command: a Fleet Engine–style journey-sharing server and its tools.
struct Tripshare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tripshare",
        abstract: "A self-hostable, Fleet Engine–style journey-sharing backend with its own map renderer.",
        discussion: """
            See it work with `tripshare demo` (a car driving through central Helsinki over a street map, and the rider's share link). \
            Start with `tripshare serve` (data in ./data, a signing key is created on first start), \
            mint a token with `tripshare token --role server --provider NAME`, and call the REST API under /v1.
            """,
        version: TripshareVersion.current,
        subcommands: [
            ServeCommand.self, DemoCommand.self, TokenCommand.self, MigrateCommand.self, BackupCommand.self, BillingCommand.self, ReplayCommand.self,
            RenderCommand.self, ImportCommand.self, NavigateCommand.self, IconsCommand.self, FixturesCommand.self, GalleryCommand.self,
        ]
    )
}
