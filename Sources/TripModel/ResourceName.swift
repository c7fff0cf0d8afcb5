import Foundation

/// Parsing and checking of resource names `providers/{provider}/{collection}/{id}`.
package enum ResourceName {
    /// The longest ID accepted, in characters.
    package static let maximumIDLength = 64
    /// The longest ID accepted, in UTF-8 bytes: 64 characters of up to 4 bytes each. A
    /// character may be any number of combining scalars, so counting characters alone let a
    /// 64-character ID carry 12,928 bytes.
    package static let maximumIDBytes = 256

    /// Checks an ID (provider, vehicle or trip): 1–64 characters and at most 256 UTF-8
    /// bytes, NFC-normalised, none of `/ : ? , #`, no control characters. `field` names it in
    /// the error.
    package static func validateID(_ id: String, field: String) throws(StatusError) {
        if id.isEmpty { throw .invalid(field, "must not be empty") }
        // Bytes first: counting characters walks the whole string.
        if id.utf8.count > maximumIDBytes {
            throw .invalid(field, "must be at most \(maximumIDBytes) bytes in UTF-8, got \(id.utf8.count)")
        }
        if id.count > maximumIDLength {
            throw .invalid(field, "must be at most \(maximumIDLength) characters, got \(id.count)")
        }
        if let bad = id.unicodeScalars.first(where: { "/:?,#".unicodeScalars.contains($0) || $0.properties.generalCategory == .control }) {
            throw .invalid(field, "must not contain '\(bad.escaped(asASCII: true))'")
        }
        // Swift compares strings by canonical equivalence, so compare the scalars.
        if !id.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(id.unicodeScalars) {
            throw .invalid(field, "must be in Unicode normalization form C")
        }
    }

    /// `providers/{provider}/trips/{tripId}`.
    package static func trip(provider: String, id: String) -> String { "providers/\(provider)/trips/\(id)" }

    /// `providers/{provider}/vehicles/{vehicleId}`.
    package static func vehicle(provider: String, id: String) -> String { "providers/\(provider)/vehicles/\(id)" }

    /// `providers/{provider}/billableTrips/{tripId}`.
    package static func billableTrip(provider: String, id: String) -> String { "providers/\(provider)/billableTrips/\(id)" }

    /// The text after the last `/`.
    package static func lastComponent(of name: String) -> String {
        guard let slash = name.lastIndex(of: "/") else { return name }
        return String(name[name.index(after: slash)...])
    }
}
