import Foundation

/// The OpenAPI 3.1 description of the API, shipped as a resource so it is served exactly as
/// reviewed (a test checks it lists every route the router has, and nothing else).
enum OpenAPIDocument {
    static func json() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw APIError(.internal, "openapi.json is missing from the TripServer resources")
        }
        return Array(try Data(contentsOf: url))
    }
}
