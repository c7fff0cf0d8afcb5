// Requests handed straight to the router, in process: the same routes, middleware, auth and
// encoders as over a socket, without the socket. The fixture runner replays hundreds of
// calls per scenario this way, and a test can drive the API like a client would. It lives
// here rather than in TripServerTesting because the fixture runner (Scenarios) ships.

import Hummingbird
import Logging
import NIOCore
import Synchronization
import TripModel

/// Sends API requests to a ``TripServerApp``'s router without a network.
package struct LocalTransport: Sendable {
    private let responder: RouterResponder<TripRequestContext>
    private let logger: Logger

    /// A transport to `app`'s routes; `logger` receives the request logs.
    package init(app: TripServerApp, logger: Logger = Logger(label: "tripshare-local")) {
        responder = app.makeRouter().buildResponder()
        self.logger = logger
    }

    /// Sends a request with a bearer token; returns the status and the whole body.
    package func send(method: String, path: String, body: [UInt8]?, token: String) async throws -> (status: Int, body: [UInt8]) {
        let response = try await send(method: method, path: path, body: body, headers: [.authorization: "Bearer \(token)"])
        return (response.status, response.body)
    }

    /// Sends a request with a bearer token, asking for `extensions` of Fleet Engine's
    /// resources; returns the status and the whole body.
    package func send(
        method: String, path: String, body: [UInt8]?, token: String, extensions: ResourceExtensions
    ) async throws -> (status: Int, body: [UInt8]) {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if !extensions.included.isEmpty { headers[ResourceExtensions.headerField] = extensions.headerValue }
        let response = try await send(method: method, path: path, body: body, headers: headers)
        return (response.status, response.body)
    }

    /// Sends a request with any headers (a token, `If-None-Match`, ...).
    package func send(method: String, path: String, body: [UInt8]?, headers: HTTPFields) async throws -> LocalResponse {
        var fields = headers
        if let body {
            fields[.contentType] = fields[.contentType] ?? "application/json"
            fields[.contentLength] = String(body.count)
        }
        let head = HTTPRequest(
            method: HTTPRequest.Method(method) ?? .get, scheme: "http", authority: "localhost",
            path: path, headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: body ?? [])))
        let response = try await responder.respond(to: request, context: TripRequestContext(logger: logger))
        let collector = BodyCollector()
        try await response.body.write(collector)
        return LocalResponse(status: response.status.code, headers: response.headers, body: collector.bytes)
    }
}

/// A response as ``LocalTransport`` returns it.
package struct LocalResponse: Sendable {
    /// The HTTP status code.
    package var status: Int
    /// The response headers.
    package var headers: HTTPFields
    /// The whole body.
    package var body: [UInt8]
}

/// Gathers a response body in memory.
private final class BodyCollector: ResponseBodyWriter, Sendable {
    private let storage = Mutex<[UInt8]>([])

    var bytes: [UInt8] { storage.withLock { $0 } }

    func write(_ buffer: ByteBuffer) async throws {
        storage.withLock { $0.append(contentsOf: buffer.readableBytesView) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
