import Foundation
import JSON

/// The `updateMask` of an update call: which top-level fields to change. Names may be
/// lowerCamel or snake_case (`vehicle_state`), as Fleet Engine accepts both; a field named
/// in the mask but absent from the body is cleared.
public struct FieldMask: Hashable, Sendable {
    /// The lowerCamel names in the mask, in the order given, without repeats.
    package private(set) var fields: [String]

    /// Parses a comma-separated mask; empty entries are ignored.
    public init(_ text: String) {
        var seen = Set<String>()
        fields = []
        for raw in text.split(separator: ",") {
            let name = ProtoJSONNames.jsonName(String(raw.trimmingSpaces))
            if !name.isEmpty, seen.insert(name).inserted { fields.append(name) }
        }
    }

    /// Creates a mask from names already in lowerCamel.
    package init(fields: [String]) { self.fields = fields }

    /// Whether the mask names `field`.
    package func contains(_ field: String) -> Bool { fields.contains(field) }

    /// Checks every name against the writable fields of a resource; output-only fields and
    /// unknown names are INVALID_ARGUMENT naming them.
    package func validate(writable: Set<String>, outputOnly: Set<String>, parameter: String = "updateMask") throws(StatusError) {
        if fields.isEmpty { throw .invalid(parameter, "is required and must name at least one field") }
        for field in fields {
            if outputOnly.contains(field) {
                throw .invalid(parameter, "'\(field)' is maintained by the server and cannot be written")
            }
            if !writable.contains(field) {
                throw .invalid(parameter, "unknown field '\(field.prefix(64))'; writable fields are \(writable.sorted().joined(separator: ", "))")
            }
        }
    }
}
