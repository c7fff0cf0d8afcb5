import Access
import Hummingbird
import Logging

/// Per-request state: the caller's verified identity, set by ``AuthMiddleware``.
public struct TripRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who is calling; nil before authentication and on public routes.
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        principal = nil
    }

    /// A context for a request that did not come over a socket (TripServerTesting's
    /// `LocalTransport`).
    package init(logger: Logger) {
        coreContext = .init(source: LocalSource(logger: logger))
        principal = nil
    }

    /// Request bodies larger than this are refused: 2 MiB holds a 25,000-point route.
    public var maxUploadSize: Int { 2 * 1024 * 1024 }
}

/// The source of in-process requests: only a logger.
private struct LocalSource: RequestContextSource {
    let logger: Logger
}
