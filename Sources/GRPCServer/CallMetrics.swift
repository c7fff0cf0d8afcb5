import GRPCCore
import Prometheus
import Synchronization

/// Prometheus metrics of the gRPC listener, in the registry `/metrics` exposes (DESIGN §14):
/// calls answered and their latency by method (`maps.fleetengine.v1.TripService/GetTrip`)
/// and status code (`OK`, `NOT_FOUND`, ...). Both label sets are bounded: the methods are
/// the services' own, and a method that no service has is answered by grpc-swift before it
/// gets here.
///
/// A call that ends without an answer counted here (its client reset it before the server
/// started it or before the answer went out) is counted too, by ``CallCounting`` around the
/// transport.
final class CallMetrics: ServerInterceptor {
    private let registry: PrometheusCollectorRegistry
    /// The services' methods (`maps.fleetengine.v1.TripService/GetTrip`): the only method
    /// labels a call that this interceptor did not count may be counted under.
    private let methods: Set<String>
    private let collectors = Mutex([String: (count: Counter, latency: DurationHistogram)]())

    private static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5),
    ]

    /// The call the current task serves, marked once it is counted (set by ``CallCounting``).
    @TaskLocal static var call: Call?

    /// When a call arrived, and whether it has been counted.
    final class Call: Sendable {
        /// When the transport handed the call's stream over: the earliest moment the server
        /// knows of the call, the start of its latency and of its deadline (``Deadline``).
        let arrival = ContinuousClock.now
        private let counted = Atomic<Bool>(false)

        var isCounted: Bool { counted.load(ordering: .acquiring) }

        func markCounted() { counted.store(true, ordering: .releasing) }
    }

    /// Metrics in `registry` of the calls of `methods` (fully qualified).
    init(registry: PrometheusCollectorRegistry, methods: Set<String>) {
        self.registry = registry
        self.methods = methods
    }

    /// Counts a call of `method` that ended without being counted here, as its client's reset
    /// (CANCELLED); a method no service has is not counted.
    func recordUncounted(method: String, since start: ContinuousClock.Instant) {
        guard methods.contains(method) else { return }
        record(method: method, code: .cancelled, since: start)
    }

    func intercept<Input: Sendable, Output: Sendable>(
        request: StreamingServerRequest<Input>, context: ServerContext,
        next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
    ) async throws -> StreamingServerResponse<Output> {
        let start = Self.call?.arrival ?? .now
        let method = context.descriptor.fullyQualifiedMethod
        var response: StreamingServerResponse<Output>
        do {
            response = try await next(request, context)
        } catch {
            record(method: method, code: (error as? RPCError)?.code, since: start)
            throw error
        }
        switch response.accepted {
        case .success(var contents):
            // A unary answer is written by its producer: the call ends when that returns.
            let produce = contents.producer
            contents.producer = { [self] writer in
                do {
                    let trailers = try await produce(writer)
                    record(method: method, code: nil, since: start)
                    return trailers
                } catch {
                    record(method: method, code: (error as? RPCError)?.code ?? .unknown, since: start)
                    throw error
                }
            }
            response.accepted = .success(contents)
        case .failure(let error):
            record(method: method, code: error.code, since: start)
        }
        return response
    }

    /// Records one call of `method` that ended with `code` (nil: OK), and marks the task's
    /// call counted.
    private func record(method: String, code: RPCError.Code?, since start: ContinuousClock.Instant) {
        let status = code.map { Status.Code($0).statusName } ?? "OK"
        let key = "\(method) \(status)"
        let pair = collectors.withLock { collectors in
            if let existing = collectors[key] { return existing }
            let labels = [("method", method), ("code", status)]
            let made = (
                registry.makeCounter(
                    descriptor: .init(metricName: "tripshare_grpc_requests", unitName: "total", helpText: "gRPC calls answered"),
                    labels: labels),
                registry.makeDurationHistogram(
                    descriptor: .init(
                        metricName: "tripshare_grpc_request_duration", unitName: "seconds", helpText: "Time to answer gRPC calls"),
                    labels: labels, buckets: Self.buckets)
            )
            collectors[key] = made
            return made
        }
        pair.count.increment()
        pair.latency.record(ContinuousClock.now - start)
        Self.call?.markCounted()
    }
}

extension Status.Code {
    /// The code's name as gRPC spells it (`NOT_FOUND`).
    fileprivate var statusName: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        default: "CODE_\(rawValue)"
        }
    }
}
