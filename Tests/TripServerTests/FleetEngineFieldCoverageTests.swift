import Foundation
import JSON
import Testing

/// FleetEngineFieldTable against `Protos/`: every field of every message a vehicle or a trip
/// holds is sent by some row, and no row sends a field the protos lack. A field added to the
/// protos fails here, named, until a row sends it (and FleetEngineConformanceTests then fails
/// until the model keeps it).
@Suite struct FleetEngineFieldCoverageTests {
    static let package = "maps.fleetengine.v1."

    /// The fields the rows send, as `Message.field` (short message names), and what in the
    /// rows names no field of the protos.
    static func sentFields(_ schema: ProtoSchema) -> (sent: Set<String>, problems: [String]) {
        var sent: Set<String> = []
        var problems: [String] = []
        func short(_ message: String) -> String { message.hasPrefix(package) ? String(message.dropFirst(package.count)) : message }

        /// Marks the members of `json`, a value of message `message`, and those nested in them.
        func visit(_ json: JSONValue, _ message: String, path: String, row: String) {
            guard case .object(let members) = json, let fields = schema.messages[message]?.fields else { return }
            for member in members {
                guard let field = fields.first(where: { $0.jsonName == member.key || $0.name == member.key }) else {
                    problems.append("\(row): \(path).\(member.key) is no field of \(short(message))")
                    continue
                }
                sent.insert("\(short(message)).\(field.name)")
                guard let nested = schema.messageName(field.type, in: message) else { continue }
                if case .array(let elements) = member.value {
                    for element in elements { visit(element, nested, path: "\(path).\(member.key)[]", row: row) }
                } else {
                    visit(member.value, nested, path: "\(path).\(member.key)", row: row)
                }
            }
        }

        for row in FieldCase.all {
            let names = row.field.split(separator: ".").map(String.init)
            // The row's name is a path through the protos from its request message.
            var message = package + names[0]
            for name in names.dropFirst() {
                guard let field = schema.messages[message]?.fields.first(where: { $0.jsonName == name }) else {
                    problems.append("\(row.field): \(short(message)) has no field '\(name)'")
                    break
                }
                sent.insert("\(short(message)).\(field.name)")
                guard let next = schema.messageName(field.type, in: message) else { break }
                message = next
            }
            // Its body is the resource the request carries (the request's second name).
            guard names.count > 1, let resource = schema.walk(from: package + names[0], jsonPath: [names[1]]).message else { continue }
            let body: String
            switch row.action {
            case .vehicle(_, let text, _, _), .trip(_, let text, _): body = text
            }
            guard let json = try? JSONParser.parse(Array(body.utf8)) else {
                problems.append("\(row.field): the body is not JSON")
                continue
            }
            visit(json, resource, path: names[1], row: row.field)
        }
        return (sent, problems)
    }

    @Test func tableSendsEveryFieldOfTheProtos() throws {
        let schema = try ProtoSchema()
        let roots = ["Vehicle", "Trip"].map { Self.package + $0 }
        #expect(roots.allSatisfy { schema.messages[$0] != nil }, "Protos/ was not read from \(ProtoSchema.directory.path)")
        var wanted: [String] = []
        for message in Set(roots.flatMap { schema.reachable(from: $0) }).sorted() {
            guard let fields = schema.messages[message]?.fields, message.hasPrefix(Self.package) else { continue }
            wanted += fields.map { "\(message.dropFirst(Self.package.count)).\($0.name)" }
        }
        // The walk reached the messages a vehicle and a trip hold, deeply.
        #expect(wanted.contains("Vehicle.license_plate") && wanted.contains("ConsumableTrafficPolyline.speed_reading_interval"))
        let (sent, problems) = Self.sentFields(schema)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        let missing = wanted.filter { !sent.contains($0) }
        #expect(missing.isEmpty, "fields of Protos/ that no row of FleetEngineFieldTable sends:\n\(missing.joined(separator: "\n"))")
    }
}
