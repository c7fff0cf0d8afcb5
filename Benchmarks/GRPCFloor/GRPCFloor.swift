import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOCore
import NIOPosix
import Prometheus

/// grpc-swift 2's own cost per call, under the gRPC listener's configuration (issue 27): a
/// server of one trivial unary method, answered with a fixed message and no work, that
/// `GRPCLoad` drives as it drives tripshare (`Benchmarks/Load/grpc-floor-test`).
///
///     GRPCFloor PORT [--defaults] [--max-streams N] [--no-flush-coalescing] [--interceptors]
///                    [--refuse] [--cooperative] [--call-executor] [--answer-bytes N]
///
/// It answers `TripService/GetTrip` and `VehicleService/UpdateVehicle`, whatever the request
/// holds. By default it runs as `tripshare serve` runs its listener: the transport configured
/// by the listener's own code (`Listener/` links the listener's files) with
/// `ConnectionLimits.standard`, NIO's event loops as Swift concurrency's executor, and no
/// interceptor. One change at a time:
/// - `--defaults`: grpc-swift's default transport configuration instead of the listener's;
/// - `--max-streams N`: `SETTINGS_MAX_CONCURRENT_STREAMS` N instead of the listener's 100;
/// - `--no-flush-coalescing`: writes flushed at once, not coalesced for up to 100 µs;
/// - `--interceptors`: the listener's call counting and message-size check on the transport and
///   its metrics and one-message interceptors around the call (not its token check, which needs
///   a fleet);
/// - `--refuse`: every call refused UNAUTHENTICATED by an interceptor, as a bad token is;
/// - `--cooperative`: Swift's default executor instead of NIO's event loops;
/// - `--call-executor`: the server's tasks on the listener's ``CallExecutor`` (a dispatch
///   queue), NIO's event loops staying the global executor;
/// - `--answer-bytes N`: an answer of N bytes instead of an empty one.
@main
struct GRPCFloor {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let port = arguments.first.flatMap({ Int($0) }) else { usage() }
        arguments.removeFirst()
        var options = Options()
        while let flag = arguments.first {
            arguments.removeFirst()
            switch flag {
            case "--defaults": options.ourConfig = false
            case "--max-streams":
                guard let streams = arguments.first.flatMap({ Int($0) }) else { usage() }
                arguments.removeFirst()
                options.maxStreams = streams
            case "--no-flush-coalescing": options.flushCoalescing = false
            case "--interceptors": options.interceptors = true
            case "--refuse": options.refuse = true
            case "--cooperative": options.nioExecutor = false
            case "--call-executor": options.callExecutor = true
            case "--answer-bytes":
                guard let bytes = arguments.first.flatMap({ Int($0) }) else { usage() }
                arguments.removeFirst()
                options.answerBytes = bytes
            default: usage()
            }
        }
        if options.nioExecutor { _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() }
        if options.callExecutor {
            try await withTaskExecutorPreference(CallExecutor.shared) { try await serve(port: port, options) }
        } else {
            try await serve(port: port, options)
        }
    }

    static func usage() -> Never {
        print(
            "usage: GRPCFloor PORT [--defaults] [--max-streams N] [--no-flush-coalescing] [--interceptors] [--refuse] [--cooperative]"
                + " [--call-executor] [--answer-bytes N]")
        exit(2)
    }

    /// What differs from the listener's setup.
    struct Options {
        var ourConfig = true
        /// Instead of the configuration's (the listener's 100, grpc-swift's none).
        var maxStreams: Int?
        var flushCoalescing = true
        var interceptors = false
        var refuse = false
        var nioExecutor = true
        var callExecutor = false
        var answerBytes = 0
    }

    static func serve(port: Int, _ options: Options) async throws {
        var config: HTTP2ServerTransport.Posix.Config =
            if options.ourConfig {
                // GRPCListener.ConnectionLimits.standard, and the listener's byte limits.
                .listener(
                    maxConcurrentStreams: 100, idleTimeout: .seconds(300), keepalive: .seconds(20), maxAge: .seconds(3_600),
                    graceTime: .seconds(30), flowControlWindow: 65_535, requestBytes: 8 * 1024 * 1024,
                    requestBytesPerConnection: 16 * 1024 * 1024)
            } else {
                .defaults
            }
        if let streams = options.maxStreams { config.http2.maxConcurrentStreams = streams }
        if !options.flushCoalescing { config.connection.flushCoalescing = nil }
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: port), transportSecurity: .plaintext, config: config)
        let service = Answering(answer: [UInt8](repeating: 0, count: options.answerBytes))
        let refusal: [any ServerInterceptor] = options.refuse ? [Refusal()] : []
        print("GRPCFloor on 127.0.0.1:\(port): \(options)")
        if options.interceptors {
            // The listener's wrappers and interceptors, in its order, but for the token check.
            let metrics = CallMetrics(registry: PrometheusCollectorRegistry(), methods: Set(Answering.methods.map(\.fullyQualifiedMethod)))
            try await GRPCServer(
                transport: CallCounting(base: MessageSizeLimit(base: transport, limit: 2 * 1024 * 1024), metrics: metrics),
                services: [service], interceptors: [metrics] + refusal + [OneMessage()]
            ).serve()
        } else {
            try await GRPCServer(transport: transport, services: [service], interceptors: refusal).serve()
        }
    }
}

/// The listener's `CallExecutor` (Sources/GRPCServer/CallExecutor.swift), on the same
/// `DispatchTaskExecutor` (linked in `Listener/`).
enum CallExecutor {
    static let shared = DispatchTaskExecutor(label: "tripshare.grpc-calls")
}

/// The two methods `GRPCLoad` calls, each answering `answer` at once.
struct Answering: RegistrableRPCService {
    let answer: [UInt8]

    static let methods = [
        MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.TripService", method: "GetTrip"),
        MethodDescriptor(fullyQualifiedService: "maps.fleetengine.v1.VehicleService", method: "UpdateVehicle"),
    ]

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        for descriptor in Self.methods {
            router.registerHandler(forMethod: descriptor, deserializer: Bytes(), serializer: Bytes()) { [answer] request, context in
                // As the generated code does for a unary method: wait for the one message.
                let single = try await ServerRequest(stream: request)
                _ = single.message
                return StreamingServerResponse(single: ServerResponse(message: answer))
            }
        }
    }
}

/// Messages as their bytes.
struct Bytes: MessageSerializer, MessageDeserializer {
    func serialize<Output: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Output { Output(message) }
    func deserialize<Input: GRPCContiguousBytes>(_ serializedMessageBytes: Input) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}

/// Refuses every call as a bad token is refused: before the request message is read.
struct Refusal: ServerInterceptor {
    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>, context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        throw RPCError(code: .unauthenticated, message: "the token is refused")
    }
}
