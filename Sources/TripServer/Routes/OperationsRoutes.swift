import Fleet
import Foundation
import Hummingbird

/// `/healthz` (the process answers), `/readyz` (the store reads and writes: 503 with the
/// reason while its writes fail for want of storage), `/metrics` (Prometheus text) and
/// `/openapi.json`.
struct OperationsRoutes {
    let fleet: Fleet
    let metrics: RequestMetrics

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/readyz") { _, _ in
            switch await fleet.readiness() {
            case .ready:
                return Self.text("ready\n")
            case .unavailable(let reason):
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "unavailable: \(reason)\n")))
            }
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: try OpenAPIDocument.body.get()))
        }
    }

    static func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
