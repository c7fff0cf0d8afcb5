import Access
import Caching
import ConnectionLimits
import Fleet
import FleetEngineProtos
import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
import TripStore

/// The gRPC listener (DESIGN §14): Fleet Engine's `VehicleService` and `TripService` over
/// HTTP/2, plaintext or TLS, beside the HTTP server on the same fleet, tokens and metrics.
/// Run it in the same service group as the HTTP server: it stops taking calls on graceful
/// shutdown and ends once the calls in flight are answered.
package final class GRPCListener: Service, Sendable {
    /// A PEM certificate chain and its private key: the listener then speaks TLS only.
    package struct TLSFiles: Sendable, Hashable {
        /// The certificate chain, leaf first.
        package var certificateChain: String
        /// The leaf's private key.
        package var privateKey: String

        /// Files by path.
        package init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    /// The largest request message taken, as REST's largest body: 2 MiB. A larger one is
    /// answered RESOURCE_EXHAUSTED before it is decoded (``MessageSizeLimit``).
    package static let maximumRequestBytes = 2 * 1024 * 1024
    /// What the transport reads of one message at most before it resets the stream instead
    /// of answering: room for the status above on messages up to 8 MiB.
    static let transportRequestBytes = 4 * maximumRequestBytes
    /// The request bytes one connection's open calls may hold at once (``RequestBytesBudget``):
    /// one message at the transport's cap and room beside it, instead of a cap per call.
    static let requestBytesPerConnection = 2 * transportRequestBytes

    private let server: GRPCCore.GRPCServer<CallCounting<MessageSizeLimit<HTTP2ServerTransport.Posix>>>
    private let transport: HTTP2ServerTransport.Posix
    private let serving = Atomic<Bool>(false)
    private let address: String

    /// A listener on `host:port` (0: any free port) for `fleet`, authenticating with
    /// `authenticator` and counting calls in `registry`, keeping trip views in the pool
    /// of `cacheBudget` and each client connection within `limits`; with a `connectionBudget`,
    /// its connections count in it (the HTTP server's, so both stay within the file limit).
    package init(
        fleet: Fleet, authenticator: Authenticator, registry: PrometheusCollectorRegistry, host: String, port: Int,
        tls: TLSFiles? = nil, cacheBudget: CacheBudget = .standard, limits: ConnectionLimits = .standard,
        connectionBudget: ConnectionBudget? = nil, logger: Logger
    ) {
        let security: HTTP2ServerTransport.Posix.TransportSecurity =
            if let tls {
                .tls(
                    certificateChain: [.file(path: tls.certificateChain, format: .pem)],
                    privateKey: .file(path: tls.privateKey, format: .pem))
            } else {
                .plaintext
            }
        transport = HTTP2ServerTransport.Posix(
            address: Self.address(host: host, port: port), transportSecurity: security,
            config: limits.transportConfig(
                requestBytes: Self.transportRequestBytes, requestBytesPerConnection: Self.requestBytesPerConnection,
                budget: connectionBudget))
        address = "\(host):\(port)"
        let calls = Calls(fleet: fleet, authenticator: authenticator, logger: logger)
        let metrics = CallMetrics(registry: registry, methods: Self.methods)
        server = GRPCCore.GRPCServer(
            transport: CallCounting(base: MessageSizeLimit(base: transport, limit: Self.maximumRequestBytes), metrics: metrics),
            services: [
                VehicleService(calls: calls),
                TripService(calls: calls, views: EncodedViewCache(pool: cacheBudget.caches, name: "grpc_trip_views")),
            ],
            interceptors: [metrics, Authentication(calls: calls), OneMessage()])
    }

    /// The fully qualified names of both services' methods, the labels of `/metrics`.
    static let methods = Set(
        (Maps_Fleetengine_V1_VehicleService.Method.descriptors + Maps_Fleetengine_V1_TripService.Method.descriptors).map(
            \.fullyQualifiedMethod))

    /// The socket address of `host` (an IPv4 or IPv6 address, or `localhost`), as `serve --host`
    /// takes it for HTTP.
    static func address(host: String, port: Int) -> SocketAddress {
        if host == "localhost" { return .ipv4(host: "127.0.0.1", port: port) }
        return host.contains(":") ? .ipv6(host: host, port: port) : .ipv4(host: host, port: port)
    }

    /// Serves until graceful shutdown (then answers the calls in flight) or until the
    /// listener fails (a port taken, a certificate that does not load).
    package func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    do {
                        // Every call's tasks inherit the preference (``CallExecutor``).
                        try await withTaskExecutorPreference(CallExecutor.shared) { try await self.server.serve() }
                    } catch {
                        throw ListenerFailure(address: self.address, reason: error)
                    }
                }
                group.addTask {
                    // When binding fails this throws too, with less to say than serve() does.
                    guard (try? await self.transport.listeningAddress) != nil else { return }
                    self.serving.store(true, ordering: .releasing)
                }
            }
        } onGracefulShutdown: {
            self.serving.store(false, ordering: .releasing)
            self.server.beginGracefulShutdown()
        }
        serving.store(false, ordering: .releasing)
    }

    /// The port the listener is bound to, once it is (the answer to port 0).
    package var port: Int {
        get async throws {
            let address = try await transport.listeningAddress
            guard let port = address.ipv4?.port ?? address.ipv6?.port else {
                throw RPCError(code: .internalError, message: "the gRPC listener is bound to no IP port")
            }
            return port
        }
    }

    /// Why the listener cannot take calls now (for `/readyz`), or nil when it can.
    package var unreadiness: String? {
        serving.load(ordering: .acquiring) ? nil : "the gRPC listener is not serving"
    }
}

/// Why the gRPC listener stopped or never started, naming where it was to listen.
package struct ListenerFailure: Error, CustomStringConvertible {
    /// `host:port` as configured.
    package var address: String
    /// What the transport reported.
    package var reason: any Error

    package var description: String {
        "the gRPC listener on \(address) failed: \(reason)"
    }
}
