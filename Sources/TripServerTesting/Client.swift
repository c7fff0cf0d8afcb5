import Access
import Foundation
import Hummingbird
import JSON
import Testing
import TripServer

/// A test client that sends JSON with a bearer token, through a ``TripServer/LocalTransport``.
package struct Client: Sendable {
    private let execute: @Sendable (HTTPRequest.Method, String, HTTPFields, [UInt8]?) async throws -> Reply
    /// Who mints the tokens of `send(_:_:as:)`.
    package let authority: TokenAuthority

    /// A client of `transport`'s server.
    package init(transport: LocalTransport, authority: TokenAuthority) {
        execute = { method, uri, headers, body in
            let response = try await transport.send(method: method.rawValue, path: uri, body: body, headers: headers)
            return Reply(status: HTTPResponse.Status(code: response.status), headers: response.headers, body: response.body)
        }
        self.authority = authority
    }

    /// A client of `app`'s routes, for an application a test has changed after its server
    /// was made (its documentation folder, say).
    package init(app: TripServerApp, authority: TokenAuthority) {
        self.init(transport: LocalTransport(app: app), authority: authority)
    }

    /// A whole response.
    package struct Reply: Sendable {
        /// The HTTP status.
        package var status: HTTPResponse.Status
        /// The response's headers.
        package var headers: HTTPFields
        /// The whole body.
        package var body: [UInt8]
        /// The body as UTF-8 text.
        package var text: String { String(decoding: body, as: UTF8.self) }
        /// The body parsed as JSON.
        package func json() throws -> JSONValue { try JSONParser.parse(body) }
        /// The body decoded as `T` (Foundation's decoder, for a test's own reply types).
        package func decoded<T: Decodable>(_ type: T.Type) throws -> T { try JSONDecoder().decode(type, from: Data(body)) }
        /// The Google error's message, or "".
        package var errorMessage: String {
            if case .string(let message)? = (try? json())?["error"]?["message"] { return message }
            return ""
        }
        /// The Google error's status (`INVALID_ARGUMENT`, ...), or "".
        package var errorStatus: String {
            if case .string(let status)? = (try? json())?["error"]?["status"] { return status }
            return ""
        }
    }

    /// Sends `body` (JSON text) with `token`, or with a token minted for `principal`, or with none.
    @discardableResult
    package func send(
        _ method: HTTPRequest.Method, _ uri: String, as principal: Principal? = nil, token: String? = nil,
        body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> Reply {
        var fields = headers
        if let token {
            fields[.authorization] = "Bearer \(token)"
        } else if let principal {
            fields[.authorization] = "Bearer \(try await authority.mint(principal))"
        }
        return try await execute(method, uri, fields, body.map { Array($0.utf8) })
    }

    /// Sends `json` encoded (Foundation's encoder, as a client app would) with `token`, or
    /// with a token minted for `principal`.
    @discardableResult
    package func send(
        _ method: HTTPRequest.Method, _ uri: String, as principal: Principal? = nil, token: String? = nil, json: some Encodable
    ) async throws -> Reply {
        try await send(method, uri, as: principal, token: token, body: String(decoding: try JSONEncoder().encode(json), as: UTF8.self))
    }

    /// Sends a request as `send` does and records an issue unless it answers `status`.
    @discardableResult
    package func expect(
        _ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ uri: String, as principal: Principal? = nil,
        token: String? = nil, body: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        let reply = try await send(method, uri, as: principal, token: token, body: body)
        #expect(reply.status == status, "\(method) \(uri): \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }
}
