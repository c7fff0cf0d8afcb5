import Foundation
import JSON

/// The messages of the `.proto` files under `Protos/`, read at test time so that tests can
/// hold the model and the field table to them: a field added to the protos is seen by every
/// test that walks them, with no second list to keep.
///
/// It reads the subset of proto3 those files use: nested `message` and `enum` blocks,
/// `oneof` blocks (their fields belong to the message), `repeated` fields, options in
/// brackets, `//` comments.
struct ProtoSchema {
    struct Field: Equatable {
        /// The proto field name (`vehicle_state`).
        var name: String
        /// The type as written (`VehicleState`, `google.protobuf.Timestamp`).
        var type: String
        var number: Int
        var repeated: Bool
        var deprecated: Bool
        /// The proto3 JSON name: lowerCamelCase of `name`, as the model's coding derives it.
        var jsonName: String { ProtoJSONNames.jsonName(name) }
    }

    struct Message {
        /// The full name: `maps.fleetengine.v1.Vehicle.VehicleType`.
        var name: String
        var file: String
        var fields: [Field]
    }

    /// Messages by full name.
    private(set) var messages: [String: Message] = [:]
    /// Enums' full names.
    private(set) var enums: Set<String> = []

    /// The repository's `Protos/` directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Protos")

    /// Reads every `.proto` file under `directory`.
    init(directory: URL = ProtoSchema.directory) throws {
        let files =
            FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "proto" } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            try read(String(contentsOf: file, encoding: .utf8), file: file.path.replacingOccurrences(of: directory.path + "/", with: ""))
        }
    }

    /// An open `{ }` block.
    private enum Block {
        case message(String)
        case oneof
        /// An enum, a service, an rpc's options: nothing in it is a message's field.
        case other
    }

    private mutating func read(_ text: String, file: String) throws {
        var package = ""
        var blocks: [Block] = []
        func owner() -> String? {
            for block in blocks.reversed() { if case .message(let name) = block { return name } }
            return nil
        }
        for rawLine in text.split(separator: "\n") {
            let line = (rawLine.range(of: "//").map { String(rawLine[..<$0.lowerBound]) } ?? String(rawLine))
                .trimmingCharacters(in: .whitespaces)
            let words = line.split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            if first == "package" {
                package = String(words[1].dropLast())
            } else if line.hasSuffix("{") {
                let name = "\(owner() ?? package).\(words.count > 1 ? words[1] : "")"
                switch first {
                case "message":
                    messages[name] = Message(name: name, file: file, fields: [])
                    blocks.append(.message(name))
                case "enum":
                    enums.insert(name)
                    blocks.append(.other)
                case "oneof": blocks.append(.oneof)
                default: blocks.append(.other)
                }
            } else if line.hasPrefix("}") {
                blocks.removeLast()
            } else if let block = blocks.last, let message = owner(), first != "option", first != "reserved" {
                if case .other = block { continue }
                // A field: `[repeated] TYPE name = N [options];`.
                guard let equals = words.firstIndex(of: "="), equals >= 2,
                    let number = Int(words[equals + 1].trimmingCharacters(in: CharacterSet(charactersIn: ";")))
                else { throw ProtoSchemaError("\(file): cannot read '\(line)'") }
                let repeated = first == "repeated"
                messages[message]?.fields.append(
                    Field(
                        name: words[equals - 1], type: words[repeated ? 1 : 0], number: number, repeated: repeated,
                        deprecated: line.contains("deprecated = true")))
            }
        }
    }

    /// The full name of the message `type` names, written inside message `scope` (proto's
    /// scoping: innermost first); nil for scalars, enums and the well-known types.
    func messageName(_ type: String, in scope: String) -> String? {
        if type.hasPrefix("google.protobuf.") { return nil }
        var parts = scope.split(separator: ".").map(String.init)
        while true {
            let candidate = (parts + [type]).joined(separator: ".")
            if messages[candidate] != nil { return candidate }
            if parts.isEmpty { return nil }
            parts.removeLast()
        }
    }

    /// The message a field path leads to from `root`, or nil with the first name no message
    /// has: `("maps.fleetengine.v1.UpdateVehicleRequest", ["vehicle", "lastLocation"])`.
    func walk(from root: String, jsonPath: [String]) -> (message: String?, unknown: String?) {
        var current = root
        for (i, name) in jsonPath.enumerated() {
            guard let field = messages[current]?.fields.first(where: { $0.jsonName == name }) else { return (nil, name) }
            guard let next = messageName(field.type, in: current) else {
                return i == jsonPath.count - 1 ? (nil, nil) : (nil, jsonPath[i + 1])
            }
            current = next
        }
        return (current, nil)
    }

    /// Every message reachable from `root` through message-typed fields, `root` included.
    func reachable(from root: String) -> [String] {
        var seen: [String] = []
        var queue = [root]
        while let name = queue.popLast() {
            guard !seen.contains(name), let message = messages[name] else { continue }
            seen.append(name)
            queue += message.fields.compactMap { messageName($0.type, in: name) }
        }
        return seen.sorted()
    }
}

struct ProtoSchemaError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
