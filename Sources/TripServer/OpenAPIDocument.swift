import Foundation
import NIOCore

/// The OpenAPI 3.1 description of the API, shipped as a resource so it is served exactly as
/// reviewed (a test checks it lists every route the router has, and nothing else).
enum OpenAPIDocument {
    /// The document as every answer sends it: read once, so answers share one copy however
    /// many wait for slow clients.
    static let body: Result<ByteBuffer, APIError> = Result { ByteBuffer(bytes: try json()) }.mapError(APIError.from)

    static func json() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw APIError(.internal, "openapi.json is missing from the TripServer resources")
        }
        return Array(try Data(contentsOf: url))
    }
}
