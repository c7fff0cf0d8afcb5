import TripModel
import TripServer

/// Sends API requests somewhere: to a live server over HTTP, or to the router in process
/// (``TripServer/LocalTransport``).
package protocol APITransport: Sendable {
    /// Sends one request with a bearer token, asking for `extensions` of Fleet Engine's
    /// resources; `path` includes the query string. Returns the status and body.
    func send(
        method: String, path: String, body: [UInt8]?, token: String, extensions: ResourceExtensions
    ) async throws -> (status: Int, body: [UInt8])
}

extension APITransport {
    /// Sends one request as tripshare's own tools do: asking for every extension (the replay
    /// scores a vehicle's `estimateMethod`; fixtures record it).
    package func send(method: String, path: String, body: [UInt8]?, token: String) async throws -> (status: Int, body: [UInt8]) {
        try await send(method: method, path: path, body: body, token: token, extensions: .all)
    }
}

extension LocalTransport: APITransport {}
