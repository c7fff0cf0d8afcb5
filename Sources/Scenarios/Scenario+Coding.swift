// Reading and writing scenario.json. Reading is strict (an unknown field is an error naming
// its path) and checks that every reference resolves; writing puts one call or checkpoint
// per line, so a long timeline stays readable and diffs stay small.

import Foundation
import JSON
import TripModel

extension Scenario: Codable {
    enum CodingKeys: String, CodingKey {
        case format, name, description, source, notes, provider, vehicles, trips, routes, styles, tolerances
        case timeline, checkpoints
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(Int.self, forKey: .format)
        guard format == Self.currentFormat else {
            throw FieldValidationError(
                codingPath: c.codingPath + [CodingKeys.format],
                message: "format \(format) is not supported; this tripshare reads format \(Self.currentFormat)")
        }
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description) ?? ""
        source = try c.decodeIfPresent(String.self, forKey: .source)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        provider = try c.decode(String.self, forKey: .provider)
        vehicles = try c.decodeIfPresent([String: JSONValue].self, forKey: .vehicles) ?? [:]
        trips = try c.decodeIfPresent([String: JSONValue].self, forKey: .trips) ?? [:]
        routes = try c.decodeIfPresent([String: JSONValue].self, forKey: .routes) ?? [:]
        styles = try c.decodeIfPresent([String: JSONValue].self, forKey: .styles) ?? [:]
        tolerances = try c.decodeIfPresent(Tolerances.self, forKey: .tolerances) ?? Tolerances()
        timeline = try c.decodeIfPresent([Call].self, forKey: .timeline) ?? []
        checkpoints = try c.decodeIfPresent([Checkpoint].self, forKey: .checkpoints) ?? []
        if let problem = validationProblem() {
            throw FieldValidationError(codingPath: c.codingPath + problem.path, message: problem.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(name, forKey: .name)
        try c.encode(description, forKey: .description)
        try c.encodeIfPresent(source, forKey: .source)
        if !notes.isEmpty { try c.encode(notes, forKey: .notes) }
        try c.encode(provider, forKey: .provider)
        if !vehicles.isEmpty { try c.encode(vehicles, forKey: .vehicles) }
        if !trips.isEmpty { try c.encode(trips, forKey: .trips) }
        if !routes.isEmpty { try c.encode(routes, forKey: .routes) }
        if !styles.isEmpty { try c.encode(styles, forKey: .styles) }
        if tolerances != Tolerances() { try c.encode(tolerances, forKey: .tolerances) }
        try c.encode(timeline, forKey: .timeline)
        try c.encode(checkpoints, forKey: .checkpoints)
    }

    /// The first broken rule: times out of order, a reference to nothing, a bad name.
    func validationProblem() -> (path: [any CodingKey], message: String)? {
        func at(_ key: CodingKeys, _ index: Int, _ field: String) -> [any CodingKey] {
            [key, AnyCodingKey(intValue: index), AnyCodingKey(field)]
        }
        for (i, call) in timeline.enumerated() {
            if i > 0, call.at < timeline[i - 1].at {
                return (at(.timeline, i, "at"), "\(call.at.rfc3339) is earlier than the call before; the timeline is in time order")
            }
            switch call.op {
            case .createVehicle where call.body == nil && vehicles[call.id] == nil:
                return (at(.timeline, i, "id"), "no body and no vehicle '\(call.id)' in 'vehicles'")
            case .createTrip where call.body == nil && trips[call.id] == nil:
                return (at(.timeline, i, "id"), "no body and no trip '\(call.id)' in 'trips'")
            case .updateVehicle, .updateTrip:
                if call.updateMask == nil { return (at(.timeline, i, "updateMask"), "an update needs an updateMask") }
                if call.body == nil { return (at(.timeline, i, "body"), "an update needs a body") }
            case .setRoute:
                guard let route = call.route else { return (at(.timeline, i, "route"), "setRoute names a route of 'routes'") }
                if routes[route] == nil { return (at(.timeline, i, "route"), "no route '\(route)' in 'routes'") }
            case .putStyle where call.body == nil && styles[call.id] == nil:
                return (at(.timeline, i, "id"), "no body and no style '\(call.id)' in 'styles'")
            default: break
            }
        }
        var names = Set<String>()
        for (i, checkpoint) in checkpoints.enumerated() {
            if i > 0, checkpoint.at < checkpoints[i - 1].at {
                return (at(.checkpoints, i, "at"), "\(checkpoint.at.rfc3339) is earlier than the checkpoint before")
            }
            if !Self.isFileName(checkpoint.name) {
                return (at(.checkpoints, i, "name"), "names are 1–64 letters, digits, '-', '_' or '.' (they name golden files)")
            }
            if !names.insert(checkpoint.name).inserted {
                return (at(.checkpoints, i, "name"), "'\(checkpoint.name)' is used twice")
            }
        }
        return nil
    }

    /// True for names that are safe as file names everywhere.
    static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.first != "."
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }

    /// Reads `scenario.json`; the error names the file and the JSON path.
    public static func load(from url: URL) throws -> Scenario {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ScenarioError("\(url.path): cannot be read") }
        do {
            return try StrictJSONDecoder().decode(Scenario.self, from: data, root: url.lastPathComponent)
        } catch {
            throw ScenarioError("\(url.path): \(error.description)")
        }
    }

    /// The scenario as the text of `scenario.json`: sorted keys, one call or checkpoint per line.
    package func fileText() throws -> String {
        var out = "{\n"
        var head = self
        head.timeline = []
        head.checkpoints = []
        guard case .object(let members) = try JSONValue.parse(JSONCoding.encodePretty(head)) else {
            throw ScenarioError("a scenario encodes as an object")
        }
        for member in members where member.key != "timeline" && member.key != "checkpoints" {
            out += "  \(try Self.compact(JSONValue.string(member.key))): "
            let pretty = String(decoding: try JSONCoding.encodePretty(member.value), as: UTF8.self)
            out += pretty.replacingOccurrences(of: "\n", with: "\n  ") + ",\n"
        }
        func lines<T: Encodable>(_ key: String, _ items: [T]) throws -> String {
            if items.isEmpty { return "  \"\(key)\": []" }
            let body = try items.map { "    " + (try Self.compact($0)) }.joined(separator: ",\n")
            return "  \"\(key)\": [\n\(body)\n  ]"
        }
        out += try lines("timeline", timeline) + ",\n"
        out += try lines("checkpoints", checkpoints) + "\n}\n"
        return out
    }

    /// Writes `scenario.json` into `directory` (created if needed).
    package func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(fileText().utf8).write(to: directory.appendingPathComponent("scenario.json"))
    }

    private static func compact(_ value: some Encodable) throws -> String {
        try JSONCoding.encodeText(value)
    }
}

extension JSONValue {
    /// Parses JSON bytes (a ``JSONParser`` shorthand that throws a plain error).
    static func parse(_ data: Data) throws -> JSONValue {
        do { return try JSONParser.parse(data) } catch { throw ScenarioError(error.description) }
    }
}

/// A scenario that cannot be read, imported or run; the message says what and where.
package struct ScenarioError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var description: String

    /// An error with a message.
    package init(_ description: String) { self.description = description }
}
