// What the tests that drive a router through HummingbirdTesting's client send and read (a
// router they build themselves, or a restarted server's).

import Foundation
import Hummingbird
import HummingbirdTesting

extension TestClientProtocol {
    /// Sends `body` (JSON text) with a bearer token.
    @discardableResult
    package func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String, body: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        fields[.authorization] = "Bearer \(token)"
        if body != nil { fields[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
    }

    /// Sends an encodable body.
    @discardableResult
    package func send(_ method: HTTPRequest.Method, _ uri: String, token: String, json: some Encodable) async throws -> TestResponse {
        try await send(method, uri, token: token, body: String(decoding: try JSONEncoder().encode(json), as: UTF8.self))
    }
}

extension TestResponse {
    /// The body as text.
    package var text: String { String(buffer: body) }

    /// The body decoded as `T`.
    package func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
