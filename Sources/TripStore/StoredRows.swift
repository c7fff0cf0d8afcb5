// A stored row's JSON read back, the one way for every store (issue 30: StoredJSONDecoder, the
// fast path for text this program wrote): a row that cannot be read is an internal error that
// names what the row held.

import JSON
import TripModel

/// Reads of the JSON the stores keep in their rows.
package enum StoredRows {
    /// `body` decoded as `type`; INTERNAL naming `name` (the type's own name by default) when
    /// it cannot be read.
    package static func decode<T: Decodable>(_ type: T.Type, _ body: String, named name: String? = nil) throws -> T {
        do {
            return try StoredJSONDecoder.decode(type, from: body, root: "stored")
        } catch {
            throw StatusError(.internal, "the stored \(name ?? "\(T.self)") cannot be read: \(error)")
        }
    }

    /// One top-level member of `body` decoded alone (nil when absent or null); INTERNAL naming
    /// the member when it cannot be read.
    package static func member<T: Decodable>(_ name: String, of body: String, as type: T.Type) throws -> T? {
        do {
            return try StoredJSONDecoder.member(name, of: body, as: type)
        } catch {
            throw StatusError(.internal, "the stored \(name) cannot be read: \(error)")
        }
    }
}
