import ArgumentParser
import ConnectionLimits
import JSON
import TripServer

/// How much the server lets its clients hold (DESIGN §11, docs/limits.md): connections,
/// members of a JSON body, event streams per token, pixels drawn per token. Each flag falls
/// back to a `TRIPSHARE_*` environment variable, then to its default.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "Client connections held at once; beyond them a few more are let in for /healthz and /readyz and the "
                + "rest answered 503 and closed (env TRIPSHARE_MAX_CONNECTIONS; default: what the open-file limit "
                + "leaves after \(ConnectionBudget.otherFiles + ConnectionBudget.healthReserve) descriptors for the "
                + "database and files, at most \(ConnectionBudget.defaultCeiling)).", valueName: "COUNT"))
    var maxConnections: Int?

    @Option(
        name: .customLong("json-max-members"),
        help: ArgumentHelp(
            "Members one object of a JSON request body may have; a body over it is refused with 400 "
                + "INVALID_ARGUMENT (env TRIPSHARE_JSON_MAX_MEMBERS; default 10000). A body's objects together may "
                + "have 200000, or this many if more.", valueName: "COUNT"))
    var jsonMaxMembers: Int?

    @Option(
        name: .customLong("max-streams-per-token"),
        help: ArgumentHelp(
            "Event streams one token may have open at once; one more is refused with 429 RESOURCE_EXHAUSTED "
                + "(env TRIPSHARE_MAX_STREAMS_PER_TOKEN; default 8).", valueName: "COUNT"))
    var maxStreamsPerToken: Int?

    @Option(
        name: .customLong("pixel-rate"),
        help: ArgumentHelp(
            "Millions of pixels a second each driver or consumer token may have drawn (previews, the driver's "
                + "screen, turn cards), in bursts of three seconds' worth; 0 turns the limit off "
                + "(env TRIPSHARE_PIXEL_RATE; default 8).", valueName: "MEGAPIXELS"))
    var pixelRate: Double?

    /// The connection budget for a process whose open-file limit is `fileLimit` (nil: unknown).
    func connectionBudget(fileLimit: OpenFileLimit?) throws -> ConnectionBudget {
        let files = fileLimit?.soft ?? 1_024
        let maximum =
            try Self.count(maxConnections, "TRIPSHARE_MAX_CONNECTIONS", "--max-connections")
            ?? ConnectionBudget.defaultMaximum(fileLimit: files)
        let room = files - ConnectionBudget.healthReserve - 16
        guard maximum <= room else {
            throw ValidationError(
                "--max-connections \(maximum) leaves too few of the \(files) open files this process may have for its "
                    + "database and files: at most \(room) (raise the limit with ulimit -n)")
        }
        return ConnectionBudget(maximum: maximum)
    }

    /// The bounds on requests to run with.
    func requestLimits() throws -> RequestLimits {
        let standard = RequestLimits.standard
        let members = try Self.count(jsonMaxMembers, "TRIPSHARE_JSON_MAX_MEMBERS", "--json-max-members")
        let streams = try Self.count(maxStreamsPerToken, "TRIPSHARE_MAX_STREAMS_PER_TOKEN", "--max-streams-per-token")
        let pixels = try Self.megapixels(pixelRate)
        return RequestLimits(
            json: members.map(JSONParser.Limits.perObject) ?? standard.json, streamsPerToken: streams ?? standard.streamsPerToken,
            pixelsPerSecond: pixels.map { $0 > 0 ? $0 * 1_000_000 : nil } ?? standard.pixelsPerSecond)
    }

    /// `--pixel-rate` or its variable, in millions; nil when neither is given.
    private static func megapixels(_ flag: Double?) throws -> Double? {
        let text = flag.map { String($0) } ?? ServerOptions.environment["TRIPSHARE_PIXEL_RATE"]
        guard let text, !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw ValidationError("--pixel-rate (TRIPSHARE_PIXEL_RATE) must be a number of at least 0, got '\(text)'")
        }
        return value
    }

    func validate() throws {
        _ = try requestLimits()
        if maxConnections != nil { _ = try Self.count(maxConnections, "TRIPSHARE_MAX_CONNECTIONS", "--max-connections") }
    }

    /// A count of at least 1 from the flag, else the environment; nil when neither is given.
    private static func count(_ flag: Int?, _ variable: String, _ name: String) throws -> Int? {
        let value: Int
        if let flag {
            value = flag
        } else if let text = ServerOptions.environment[variable], !text.isEmpty {
            guard let parsed = Int(text) else { throw ValidationError("\(variable) must be a whole number (as \(name)), got '\(text)'") }
            value = parsed
        } else {
            return nil
        }
        guard value >= 1 else { throw ValidationError("\(name) must be at least 1, got \(value)") }
        return value
    }
}
