import Caching
import Fleet
import Foundation
import Hummingbird
import JSON
import Metrics
import Navigation
import Prometheus
import Render
import Styling
import TripModel

/// The driver's screen as pictures (DESIGN §9): `GET .../vehicles/{id}/navigation.png`,
/// `.../navigation/layout.json` (the same query: every rectangle the picture draws) and
/// `.../navInfo/card.png` (the turn-by-turn card for small screens), drawn from the vehicle's
/// live NavInfo, route, settings and speed-alert thresholds, for the server or the vehicle's
/// driver. The ETag covers everything that decides the pixels (the screen's digest, the
/// route's version, the style's tag), so `If-None-Match` is answered with 304 before drawing;
/// `Cache-Control: no-cache` has browsers ask again each time, since the vehicle moves.
struct NavigationScreenRoutes {
    let fleet: Fleet
    /// The map under the screen, drawn with the basemap styles the style sheet names; nil
    /// draws the style's plain background.
    let basemap: BasemapLayer?
    /// The time screens are drawn at when the query gives none (the arrival time counts from it).
    let clock: WallClock
    let renderTime: DurationHistogram
    /// Each vehicle's route made ready to draw, under its version: building one reads every
    /// point, which for a long route costs more than drawing. Bounded by points kept.
    let routes = BoundedCache<String, (version: Int64, geometry: NavigationRouteGeometry?)>(capacity: 4_096, costLimit: 2_000_000)

    static let cacheControl = "private, no-cache"

    init(fleet: Fleet, basemap: BasemapLayer?, metrics: RequestMetrics, clock: WallClock) {
        self.fleet = fleet
        self.basemap = basemap
        self.clock = clock
        renderTime = metrics.renderHistogram(
            name: "tripshare_navigation_render_duration", help: "Time to draw and encode a navigation screen or turn-by-turn card PNG")
    }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navigation.png", use: screenImage)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navigation/layout.json", use: screenLayout)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navInfo/card.png", use: card)
    }

    /// `GET .../navigation.png`: the screen as PNG.
    @Sendable func screenImage(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (screen, etag) = try await screen(request, context: context, kind: "n")
        if let unchanged = Self.notModified(request, etag: etag) { return unchanged }
        let start = ContinuousClock.now
        let png = try screen.png()
        renderTime.record(ContinuousClock.now - start)
        return Self.answer(png, type: "image/png", etag: etag)
    }

    /// `GET .../navigation/layout.json`: the screen's rectangles, without drawing it.
    @Sendable func screenLayout(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (screen, etag) = try await screen(request, context: context, kind: "l")
        if let unchanged = Self.notModified(request, etag: etag) { return unchanged }
        return Self.answer(Array(try JSONCoding.encode(try screen.layout())), type: "application/json; charset=utf-8", etag: etag)
    }

    /// `GET .../navInfo/card.png`: the turn-by-turn card.
    @Sendable func card(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: false)
        let options = try TurnCardOptions(parameters: try Self.query(request, TurnCardOptions.parameterNames, "card.png"), now: clock.now)
        let inputs = try await fleet.navigationScreenInputs(provider: provider, vehicleId: id)
        let card = TurnCard(navInfo: inputs.navInfo, arrived: inputs.arrived, options: options)
        let etag = "\"c\(card.fingerprint.hex)\""
        if let unchanged = Self.notModified(request, etag: etag) { return unchanged }
        let start = ContinuousClock.now
        let png = try card.render().png()
        renderTime.record(ContinuousClock.now - start)
        return Self.answer(png, type: "image/png", etag: etag)
    }

    /// The vehicle's screen for the request's query, and its ETag (`kind` tells the picture
    /// from the layout).
    private func screen(_ request: Request, context: TripRequestContext, kind: String) async throws -> (NavigationScreen, String) {
        let (provider, id) = try context.vehicle(write: false)
        let names = NavigationScreenOptions.parameterNames
        let what = kind == "n" ? "navigation.png" : "navigation/layout.json"
        let options = try NavigationScreenOptions(parameters: try Self.query(request, names, what), now: clock.now)
        let inputs = try await fleet.navigationScreenInputs(provider: provider, vehicleId: id)
        let style = try await fleet.styles.styleForPreview(StyleLibrary.defaultName)
        let reported = inputs.vehicle.lastLocation
        let position = (inputs.snappedLocation ?? reported?.location).map {
            VehiclePosition(location: $0, heading: reported?.heading, speedMetersPerSecond: reported?.speed)
        }
        let screen = NavigationScreen(
            navInfo: inputs.navInfo, route: geometry(inputs, key: "\(provider)/\(id)"), vehicle: position, arrived: inputs.arrived,
            settings: inputs.uiSettings.settings, speedAlertThresholds: SpeedAlertThresholds(inputs.navigatorSettings),
            style: style.coordinator.styleSheet, options: options, underlay: basemap?.underlay(for: style.coordinator.styleSheet))
        var fingerprint = screen.fingerprint
        fingerprint.add(String(inputs.routeVersion))
        fingerprint.add(style.tag)
        return (screen, "\"\(kind)\(fingerprint.hex)\"")
    }

    /// The vehicle's route made ready to draw, from the cache when it holds this version.
    private func geometry(_ inputs: NavigationScreenInputs, key: String) -> NavigationRouteGeometry? {
        guard let route = inputs.route else { return nil }
        if let cached = routes.value(forKey: key), cached.version == inputs.routeVersion { return cached.geometry }
        // The navigator accepted the route, so it is valid; one that is not is drawn without.
        let geometry = try? NavigationRouteGeometry(route: route)
        routes.setValue((inputs.routeVersion, geometry), forKey: key, cost: max(1, geometry?.pointCount ?? 1))
        return geometry
    }

    /// The query's parameters by name (percent-decoded); a name the route does not take is
    /// refused, so that a misspelt option is not silently ignored.
    static func query(_ request: Request, _ names: [String], _ what: String) throws(APIError) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            let key = String(name)
            guard names.contains(key) else {
                throw .invalid("\(key.prefix(32)): \(what) takes no such parameter; it takes \(names.joined(separator: ", "))")
            }
            parameters[key] = String(value)
        }
        return parameters
    }

    static func notModified(_ request: Request, etag: String) -> Response? {
        guard let condition = request.headers[.ifNoneMatch], PreviewRoutes.matches(condition, etag) else { return nil }
        return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: cacheControl])
    }

    static func answer(_ bytes: [UInt8], type: String, etag: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .eTag: etag, .cacheControl: cacheControl],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
