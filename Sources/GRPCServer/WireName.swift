import TripModel

/// A resource name as the gRPC requests carry it (`providers/{provider}/vehicles/{id}`,
/// `providers/{provider}`): where REST has the provider and ID in its path, gRPC has them in
/// the request's `name` or `parent`, which is also where the provider a token is checked
/// against comes from (DESIGN §14).
struct WireName: Sendable, Equatable {
    /// The provider named.
    var provider: String
    /// The resource's ID; nil for a parent (`providers/{provider}`).
    var id: String?

    /// Reads `text` as `providers/{provider}/{collection}/{id}`; `field` names it in errors.
    static func resource(_ text: String, collection: String, field: String) throws(StatusError) -> WireName {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "providers", parts[2] == collection, !parts[1].isEmpty, !parts[3].isEmpty else {
            throw .invalid(field, "must be 'providers/{provider}/\(collection)/{id}', got '\(text.prefix(300))'")
        }
        // The parts are checked as REST checks its path's: by Fleet, where they matter.
        return WireName(provider: String(parts[1]), id: String(parts[3]))
    }

    /// Reads `text` as `providers/{provider}`; `field` names it in errors.
    static func parent(_ text: String, field: String = "parent") throws(StatusError) -> WireName {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "providers", !parts[1].isEmpty else {
            throw .invalid(field, "must be 'providers/{provider}', got '\(text.prefix(300))'")
        }
        return WireName(provider: String(parts[1]), id: nil)
    }

    /// The ID of a resource name (``resource(_:collection:field:)`` always has one).
    var resourceID: String { id ?? "" }
}
