import Caching
import Fleet
import Foundation
import Hummingbird
import TripStore

/// `/healthz` (the process answers), `/readyz` (the store reads and writes, and every other
/// listener serves: 503 with the reason while its writes fail for want of storage or a
/// listener is down), `/metrics` (Prometheus text: the server's counters and the store's)
/// and `/openapi.json`.
struct OperationsRoutes {
    let fleet: Fleet
    let metrics: RequestMetrics
    /// The process's cache pool, whose caches `/metrics` reports.
    let cachePool: CachePool
    /// The other listeners' readiness (``TripServerApp/readinessChecks``).
    var readinessChecks: [@Sendable () -> String?] = []

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/readyz") { _, _ in
            switch await fleet.readiness() {
            case .ready:
                if let reason = readinessChecks.lazy.compactMap({ $0() }).first { return Self.unavailable(reason) }
                return Self.text("ready\n")
            case .unavailable(let reason):
                return Self.unavailable(reason)
            }
        }
        router.get("/metrics") { _, _ in
            // The server's own counters, what the store counts of its work, then the caches.
            var body = ByteBuffer(bytes: metrics.exposition())
            body.writeString(StoreCounter.exposition(fleet.store.counters))
            body.writeString(CacheMetrics.exposition(cachePool))
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: ResponseBody(byteBuffer: body))
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: try OpenAPIDocument.body.get()))
        }
    }

    static func unavailable(_ reason: String) -> Response {
        Response(
            status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "unavailable: \(reason)\n")))
    }

    static func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
