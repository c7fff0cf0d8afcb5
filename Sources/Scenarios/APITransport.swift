import TripServerTesting

/// Sends API requests somewhere: to a live server over HTTP, or to the router in process
/// (``TripServerTesting/LocalTransport``).
public protocol APITransport: Sendable {
    /// Sends one request; `path` includes the query string. Returns the status and body.
    func send(method: String, path: String, body: [UInt8]?, token: String) async throws -> (status: Int, body: [UInt8])
}

extension LocalTransport: APITransport {}
