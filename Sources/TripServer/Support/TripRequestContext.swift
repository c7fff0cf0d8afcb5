import Access
import Hummingbird
import Logging
import NIOCore

/// Per-request state: the caller's verified identity, set by ``AuthMiddleware``.
package struct TripRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// Who is calling; nil before authentication and on public routes.
    package var principal: Principal?
    /// The server's bounds on what a request may ask (set by ``MetricsAndErrorsMiddleware``).
    package var limits = RequestLimits.standard
    /// The peer's socket address; nil for requests that did not come over a socket.
    private let remoteSocketAddress: SocketAddress?
    /// The peer's IP address; nil for requests that did not come over a socket. Formatted
    /// when asked (the map data routes' limit), not for every request.
    package var remoteAddress: String? { remoteSocketAddress?.ipAddress }

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        principal = nil
        remoteSocketAddress = source.channel.remoteAddress
    }

    /// A context for a request that did not come over a socket (``LocalTransport``).
    package init(logger: Logger) {
        coreContext = .init(source: LocalSource(logger: logger))
        principal = nil
        remoteSocketAddress = nil
    }

    /// Request bodies larger than this are refused: 2 MiB holds a 25,000-point route.
    package var maxUploadSize: Int { 2 * 1024 * 1024 }
}

/// The source of in-process requests: only a logger.
private struct LocalSource: RequestContextSource {
    let logger: Logger
}
