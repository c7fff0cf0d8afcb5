import Access
import Fleet
import Foundation
import Hummingbird
import Metrics
import Prometheus
import Raster
import Render
import Styling
import TripModel
import TripStore

/// `GET .../trips/{tripId}/preview.png` (DESIGN §7): the trip's rider view drawn with a
/// style, over the server's basemap when it has one (`basemap=off` leaves it out). Whoever
/// may read the trip may fetch its preview (a consumer only its own). The ETag covers
/// everything that decides the pixels — what the rider view shows (vehicle position and
/// heading, stops, paths, traffic, status), the style's version and files, the options, the
/// ETA badge's text, and the basemap's archive and style —
/// so `If-None-Match` answers 304 without drawing, and the badge's minute still changes it.
struct PreviewRoutes {
    let fleet: Fleet
    let renderTime: DurationHistogram
    /// The render time's source (the server's clock; a fixture replay's scripted one).
    let clock: WallClock
    /// The map under previews; nil when the server has none.
    let basemap: BasemapLayer?
    /// What each token may have drawn.
    let pixels: PixelBudget

    /// How long browsers may reuse a preview: the vehicle reports every few seconds.
    static let cacheControl = "private, max-age=5"

    init(fleet: Fleet, metrics: RequestMetrics, clock: WallClock = .system, basemap: BasemapLayer? = nil, pixels: PixelBudget) {
        self.fleet = fleet
        self.pixels = pixels
        self.clock = clock
        self.basemap = basemap
        renderTime = metrics.renderHistogram(name: "tripshare_render_duration", help: "Time to draw and encode a trip preview PNG")
    }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/providers/{provider}/trips/{tripId}/preview.png", use: preview)
    }

    @Sendable func preview(_ request: Request, context: TripRequestContext) async throws -> Response {
        try await preview(
            request, principal: try context.caller(), provider: try context.pathParameter("provider"),
            tripId: try context.pathParameter("tripId"))
    }

    /// The preview of `provider`'s trip `id` for `principal` (whose provider the caller has checked).
    func preview(_ request: Request, principal: Principal, provider: String, tripId id: String) async throws -> Response {
        try AccessPolicy.checkTripRead(principal, tripId: id, view: .journeySharingV1S)
        var parameters: [String: String] = [:]
        for name in PreviewOptions.parameterNames { parameters[name] = request.query(name) }
        let options = try PreviewOptions(parameters: parameters)
        let drawsBasemap = try Self.basemapParameter(request.query("basemap"))
        let styleName = request.query("style").flatMap { $0.isEmpty ? nil : $0 } ?? StyleLibrary.defaultName
        let stored = try await fleet.trip(provider: provider, id: id)
        try AccessPolicy.checkDriver(principal, trip: stored)
        let style = try await fleet.styles.styleForPreview(styleName)

        let trip = stored.rendered(as: .journeySharingV1S)
        let preview = TripPreview(
            trip: trip, style: style.coordinator.styleSheet, options: options, now: clock.now,
            basemap: drawsBasemap ? basemap : nil)
        var fingerprint = preview.fingerprint
        fingerprint.add(style.tag)
        let etag = "\"p\(fingerprint.hex)\""
        let headers: HTTPFields = [.eTag: etag, .cacheControl: Self.cacheControl]
        if let condition = request.headers[.ifNoneMatch], Self.matches(condition, etag) {
            return Response(status: .notModified, headers: headers)
        }

        try pixels.spend(preview.options.pixelWidth * preview.options.pixelHeight, by: principal)
        let (png, drawing) = try await RenderQueue.shared.draw {
            let start = ContinuousClock.now
            return (try preview.png(), ContinuousClock.now - start)
        }
        renderTime.record(drawing)
        var fields = headers
        fields[.contentType] = "image/png"
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }

    /// The `basemap` parameter: `on` (the default) or `off`.
    static func basemapParameter(_ text: String?) throws(StatusError) -> Bool {
        switch text {
        case nil, "", "on": return true
        case "off": return false
        case let text?: throw .invalid("basemap", "'\(text.prefix(32))' is not on or off")
        }
    }

    /// Whether an If-None-Match header names `etag` (weak or strong) or is `*`.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingSpaces
            return tag == "*" || tag == etag || tag == "W/\(etag)"
        }
    }
}
