import Hummingbird
import Prometheus
import Synchronization
import TripModel

/// Prometheus metrics of the server: request counts and latency histograms per route
/// pattern (never per concrete path, so cardinality stays bounded), plus whatever other
/// parts register (render time, store time, navigator lag).
package final class RequestMetrics: Sendable {
    /// The registry `/metrics` exposes.
    package let registry: PrometheusCollectorRegistry
    /// Requests by their Fleet Engine `header`.
    let requestHeaders: RequestHeaderMetrics
    private let collectors = Mutex([String: (count: Counter, latency: DurationHistogram)]())

    private static let buckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5),
    ]

    /// Creates metrics in `registry` (a fresh one by default).
    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        requestHeaders = RequestHeaderMetrics(registry: registry)
    }

    /// Counts a request that carried a Fleet Engine `header` (RequestHeaderMetrics).
    package func recordRequestHeader(_ header: RequestHeader) { requestHeaders.record(header) }

    /// Records one request to `route` answered with `status` after `duration`.
    func record(method: String, route: String, status: Int, duration: Duration) {
        let key = "\(method) \(route) \(status)"
        let pair = collectors.withLock { collectors in
            if let existing = collectors[key] { return existing }
            let labels = [("method", method), ("route", route), ("status", String(status))]
            let made = (
                registry.makeCounter(
                    descriptor: .init(
                        metricName: "tripshare_http_requests", unitName: "total",
                        helpText: "HTTP requests answered"), labels: labels),
                registry.makeDurationHistogram(
                    descriptor: .init(
                        metricName: "tripshare_http_request_duration", unitName: "seconds",
                        helpText: "Time to answer HTTP requests"),
                    labels: labels, buckets: Self.buckets)
            )
            collectors[key] = made
            return made
        }
        pair.count.increment()
        pair.latency.record(duration)
    }

    /// A histogram of the time to draw and encode one picture (previews, screens, cards):
    /// buckets from half a millisecond to 128 ms, where such renders fall.
    func renderHistogram(name: String, help: String) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: .init(metricName: name, unitName: "seconds", helpText: help), labels: [],
            buckets: [
                .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(4), .milliseconds(8),
                .milliseconds(16), .milliseconds(32), .milliseconds(64), .milliseconds(128),
            ])
    }

    /// The Prometheus text exposition of every metric.
    package func exposition() -> [UInt8] { registry.emitToBuffer() }
}

/// Times every request and turns every error into the Google error shape, so that
/// even unknown routes and framework errors answer in the API's format: an unknown path is
/// NOT_FOUND, a known one asked with another method 405 with `Allow` (``RouteCatalog``).
/// It also hands every request the server's ``RequestLimits``, through its context: here
/// rather than in a middleware of its own, because every middleware layer costs each request
/// about seven hops between executors (issues 29 and 31; docs/performance.md).
struct MetricsAndErrorsMiddleware: RouterMiddleware {
    typealias Context = TripRequestContext
    let metrics: RequestMetrics
    let catalog: RouteCatalog
    let limits: RequestLimits

    /// The answer to a request no route took: 405 when its path has other methods.
    private func unrouted(_ request: Request) -> APIError {
        let method = request.method
        guard let methods = catalog.methods(forPath: request.uri.path), !methods.isEmpty, !methods.contains(method) else {
            return APIError(.notFound, "no such resource: \(method.rawValue) \(request.uri.path.prefix(200))")
        }
        let allowed = methods.map(\.rawValue).joined(separator: ", ")
        var error = APIError(
            .unimplemented, "\(method.rawValue) is not a method of \(request.uri.path.prefix(200)); it takes \(allowed)",
            status: .methodNotAllowed)
        error.headers[.allow] = allowed
        return error
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.limits = limits
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            var apiError = APIError.from(error)
            if context.endpointPath == nil || context.endpointPath == "NotFound", apiError.status == .notFound {
                apiError = unrouted(request)
            }
            if apiError.status == .internalServerError {
                context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            response = try apiError.response(from: request, context: context)
        }
        let route = context.endpointPath ?? "unmatched"
        metrics.record(
            method: request.method.rawValue, route: route, status: response.status.code,
            duration: ContinuousClock.now - start)
        return response
    }
}
