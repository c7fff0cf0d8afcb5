import ArgumentParser
import Foundation
import JSON
import Navigation
import TripModel

/// `tripshare import`: turns outside data into the project's formats. Each source is a
/// subcommand, so that new ones (fleet logs) slot in beside the route importers.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import routes and Fleet Engine logs into tripshare's formats (routes, fixture scenarios).",
        subcommands: [ImportOSRMCommand.self, ImportValhallaCommand.self, ImportFleetLogCommand.self]
    )
}

/// What the route importers share: the input file and where the route JSON goes.
struct RouteImportOptions: ParsableArguments {
    @Argument(help: "The router's JSON response.")
    var file: String

    @Option(help: "Write the route JSON here instead of standard output.")
    var out: String?

    /// Reads the input, imports it with `importer`, checks the route and writes it.
    func run(_ importer: (Data) throws(RouteImportError) -> NavRoute) throws {
        let route = try importer(try Data(contentsOf: URL(fileURLWithPath: file)))
        do {
            _ = try route.validate()
        } catch {
            throw ValidationError("the imported route is not valid: \(error)")
        }
        let output = try LineOutput(path: out)
        output.writeLine(try JSONCoding.encodePretty(route))
        output.flush()
        if let out {
            let points = (try? route.validate().count) ?? 0
            FileHandle.standardError.write(
                Data("\(out): \(route.steps.count) steps, \(points) points, \(route.destinations.count) destinations\n".utf8))
        }
    }
}

/// `tripshare import osrm FILE`.
struct ImportOSRMCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osrm",
        abstract: "Turn an OSRM v5 /route response (steps=true) into a route JSON for PUT .../route.",
        discussion: "Example: tripshare import osrm ../shared/fixtures/osrm/portugal_to_korea.json --out route.json")

    @OptionGroup var options: RouteImportOptions

    @Option(help: "Precision of the step geometries when they are encoded polylines (5 for polyline, 6 for polyline6).")
    var precision = 5

    func run() async throws {
        let precision = self.precision
        try options.run { data throws(RouteImportError) in try OSRMImporter.route(from: data, precision: precision) }
    }
}

/// `tripshare import valhalla FILE`.
struct ImportValhallaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "valhalla",
        abstract: "Turn a Valhalla /route response into a route JSON for PUT .../route.",
        discussion: "Example: tripshare import valhalla ../shared/fixtures/valhalla/route.json")

    @OptionGroup var options: RouteImportOptions

    func run() async throws {
        try options.run(ValhallaImporter.route(from:))
    }
}
