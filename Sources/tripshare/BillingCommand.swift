import ArgumentParser
import Fleet
import Foundation
import JSON
import TripModel

/// `tripshare billing`: what providers reported billable (Fleet Engine's ReportBillableTrip).
struct BillingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "billing",
        abstract: "Read the billable trips that providers reported.",
        subcommands: [BillingExportCommand.self])
}

/// `tripshare billing export --since TIME`: the billable trips reported since then, one JSON
/// object per line, oldest report first.
struct BillingExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the billable trips reported since a time, one JSON object per line, oldest first.",
        discussion: """
            Each line is one trip as first reported through POST /v1/providers/P/billableTrips/ID:report: \
            {"name": "providers/P/billableTrips/ID", "reportTime": "...", "report": {"countryCode": ..., "platform": ..., \
            "relatedIds": [...], "solutionType": ...}}. A trip reported again keeps its first report. \
            Works on the database of --data-dir or --database, while the server runs.
            """)

    @Option(
        help: ArgumentHelp(
            "Reports at or after this time: RFC 3339 (2026-11-01T00:00:00Z), or a span back from now (24h, 30m).",
            valueName: "time"))
    var since: String

    @OptionGroup var options: ServerOptions

    /// The start of the export: an RFC 3339 time, or now less a span.
    static func start(_ text: String, now: Timestamp) throws -> Timestamp {
        if let time = Timestamp(rfc3339: text) { return time }
        if let span = TimeSpan(argument: text) { return now.adding(seconds: -span.seconds) }
        throw ValidationError("--since '\(text.prefix(40))' is neither an RFC 3339 time (2026-11-01T00:00:00Z) nor a span (24h)")
    }

    func run() async throws {
        let since = try Self.start(since, now: WallClock.system.now)
        let fleet = Fleet(store: try await options.resolvedDatabase().open())
        var after: BillableTripRecord?
        while true {
            let page = try await fleet.billableTrips(since: since, after: after, limit: 1_000)
            for record in page { print(try JSONCoding.encodeText(record)) }
            guard page.count == 1_000, let last = page.last else { break }
            after = last
        }
    }
}
