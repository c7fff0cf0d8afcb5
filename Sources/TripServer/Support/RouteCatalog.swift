// What the OpenAPI document says about each route, read once at start-up: the query
// parameters each operation takes (any other is INVALID_ARGUMENT naming it, as Fleet Engine
// answers) and which methods each path has (a known path with another method is 405, an
// unknown path NOT_FOUND). The document is the one description of the API: a test checks it
// lists every route the router has, so this table cannot drift from the routes.

import Foundation
import HTTPTypes
import JSON

/// The API's routes and their query parameters, from `openapi.json`.
struct RouteCatalog: Sendable {
    /// One path of the document.
    struct Path: Sendable {
        /// The template's segments: literals and `{parameter}` captures with literal
        /// prefixes and suffixes (`{vehicleId}:updateAttributes`, `{maneuver}.png`).
        var segments: [[Piece]]
        /// Query parameters by method: their names in lowerCamel (`header.sdkVersion`).
        var queryParameters: [HTTPRequest.Method: Set<String>]
    }

    /// Part of a path segment.
    enum Piece: Sendable, Equatable {
        case literal(String)
        case capture
    }

    /// Paths by template, as Hummingbird names a matched route (`/v1/providers/{provider}/trips`).
    let paths: [String: Path]

    /// The catalog of the document shipped with the server.
    static let shipped: RouteCatalog = {
        guard let bytes = try? OpenAPIDocument.json(), let document = try? JSONParser.parse(bytes) else { return RouteCatalog(paths: [:]) }
        return RouteCatalog(document: document)
    }()

    init(paths: [String: Path]) { self.paths = paths }

    /// Reads the paths and their operations' query parameters (following `$ref`s into
    /// `components.parameters`).
    init(document: JSONValue) {
        let shared = document["components"]?["parameters"]
        var paths: [String: Path] = [:]
        guard case .object(let entries)? = document["paths"] else {
            self.paths = [:]
            return
        }
        for (template, item) in entries {
            guard case .object(let operations) = item else { continue }
            var byMethod: [HTTPRequest.Method: Set<String>] = [:]
            for (method, operation) in operations {
                guard let method = HTTPRequest.Method(method.uppercased()) else { continue }
                var names = Set<String>()
                if case .array(let parameters)? = operation["parameters"] {
                    for parameter in parameters {
                        var resolved = parameter
                        if case .string(let ref)? = parameter["$ref"], let name = ref.split(separator: "/").last {
                            resolved = shared?[String(name)] ?? parameter
                        }
                        if resolved["in"] == .string("query"), case .string(let name)? = resolved["name"] { names.insert(name) }
                    }
                }
                byMethod[method] = names
            }
            paths[template] = Path(segments: Self.segments(of: template), queryParameters: byMethod)
        }
        self.paths = paths
    }

    private static func segments(of template: String) -> [[Piece]] {
        template.split(separator: "/").map { segment in
            var pieces: [Piece] = []
            var rest = Substring(segment)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))) }
                pieces.append(.capture)
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(.literal(String(rest))) }
            return pieces
        }
    }

    /// The methods the document has for a concrete path, or nil when no path matches it. Of
    /// several matching templates the one with the most literal text wins, as in the router:
    /// `vehicles/v1:updateAttributes` is `vehicles/{vehicleId}:updateAttributes`, not a
    /// vehicle named `v1:updateAttributes`.
    func methods(forPath path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let best = paths.values.filter { Self.matches(segments, $0.segments) }.max { Self.literalLength($0) < Self.literalLength($1) }
        return best?.queryParameters.keys.sorted { $0.rawValue < $1.rawValue }
    }

    private static func literalLength(_ path: Path) -> Int {
        path.segments.joined().reduce(0) { total, piece in
            if case .literal(let text) = piece { return total + text.count }
            return total
        }
    }

    private static func matches(_ segments: [Substring], _ template: [[Piece]]) -> Bool {
        guard segments.count == template.count else { return false }
        return zip(segments, template).allSatisfy { segment, pieces in matches(segment, pieces) }
    }

    /// Whether one segment matches a template segment: literals in place, each capture
    /// taking at least one character.
    private static func matches(_ segment: Substring, _ pieces: [Piece]) -> Bool {
        var rest = segment
        for (i, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let text):
                guard rest.hasPrefix(text) else { return false }
                rest = rest.dropFirst(text.count)
            case .capture:
                // A capture runs to the next literal (or the segment's end).
                if i + 1 < pieces.count, case .literal(let next) = pieces[i + 1] {
                    guard let end = rest.dropFirst().range(of: next)?.lowerBound else { return false }
                    rest = rest[end...]
                } else {
                    guard !rest.isEmpty else { return false }
                    rest = rest[rest.endIndex...]
                }
            }
        }
        return rest.isEmpty
    }

    /// The query parameters an operation takes, or nil when the document does not describe
    /// it (then nothing is checked).
    func queryParameters(route: String, method: HTTPRequest.Method) -> Set<String>? {
        paths[route]?.queryParameters[method]
    }
}
