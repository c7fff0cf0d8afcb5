import Access
import Fleet
import Hummingbird
import Styling
import TripModel

/// The style endpoints of DESIGN §6: any authenticated caller may read; since every
/// provider's previews use them, only a server token for every provider (`*`) may change
/// them. Bodies are the style file format (partial; JSON `null` restores defaults); reads
/// return the options in effect.
struct StyleRoutes {
    let service: StyleService

    init(styles: StyleService) {
        service = styles
    }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/styles", use: list)
        router.get("/v1/styles/{style}", use: getStyle)
        router.put("/v1/styles/{style}", use: putStyle)
        router.delete("/v1/styles/{style}", use: deleteStyle)
        router.get("/v1/styles/{style}/markers/{markerType}", use: getMarker)
        router.get("/v1/styles/{style}/markers/{markerType}/icon.png", use: getMarkerIcon)
        router.put("/v1/styles/{style}/markers/{markerType}", use: putMarker)
        router.delete("/v1/styles/{style}/markers/{markerType}", use: putMarker)
        router.get("/v1/styles/{style}/polylines/{polylineType}", use: getPolyline)
        router.put("/v1/styles/{style}/polylines/{polylineType}", use: putPolyline)
        router.delete("/v1/styles/{style}/polylines/{polylineType}", use: putPolyline)
        router.get("/v1/styles/{style}/polylines/{polylineType}/trafficColors/{speed}", use: getTrafficColor)
        router.put("/v1/styles/{style}/polylines/{polylineType}/trafficColors/{speed}", use: putTrafficColor)
        router.delete("/v1/styles/{style}/polylines/{polylineType}/trafficColors/{speed}", use: putTrafficColor)
    }

    struct Summary: Encodable {
        var name: String
        var version: Int64
        var source: String
        var modified: Bool
    }

    struct ListResponse: Encodable {
        var styles: [Summary]
    }

    @Sendable func list(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let styles = try await service.all().map { style in
            Summary(
                name: style.name, version: style.version, source: style.isFile ? "file" : "api",
                modified: style.coordinator.isModified)
        }
        return try JSONResponse.make(ListResponse(styles: styles))
    }

    @Sendable func getStyle(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let style = try await service.style(try context.pathParameter("style"))
        return Self.json(StyleJSON.encode(style.coordinator.styleSheet), style)
    }

    @Sendable func putStyle(_ request: Request, context: TripRequestContext) async throws -> Response {
        let body = try await writableBody(request, context: context)
        let style = try await service.change(try context.pathParameter("style"), creates: true) {
            (coordinator) throws(StyleError) in
            try coordinator.setStyle(json: body, icons: try Self.library().icons)
        }
        return Self.json(StyleJSON.encode(style.coordinator.styleSheet), style)
    }

    @Sendable func deleteStyle(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServerOfAllProviders(try context.caller(), "change styles")
        try await service.delete(try context.pathParameter("style"))
        return JSONResponse.empty()
    }

    @Sendable func getMarker(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let type = try Self.markerType(context)
        let style = try await service.style(try context.pathParameter("style"))
        return Self.json(StyleJSON.encode(style.coordinator.markerStyleOptions(for: type)), style)
    }

    /// PUT sets (null restores), DELETE restores the defaults.
    @Sendable func putMarker(_ request: Request, context: TripRequestContext) async throws -> Response {
        let body = try await writableBody(request, context: context)
        let type = try Self.markerType(context)
        let style = try await service.change(try context.pathParameter("style")) { (coordinator) throws(StyleError) in
            try coordinator.setMarkerStyleOptions(json: body, for: type, icons: try Self.library().icons)
        }
        return Self.json(StyleJSON.encode(style.coordinator.markerStyleOptions(for: type)), style)
    }

    @Sendable func getPolyline(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let type = try Self.polylineType(context)
        let style = try await service.style(try context.pathParameter("style"))
        return Self.json(StyleJSON.encode(style.coordinator.polylineStyleOptions(for: type)), style)
    }

    /// PUT sets (null restores), DELETE restores the defaults.
    @Sendable func putPolyline(_ request: Request, context: TripRequestContext) async throws -> Response {
        let body = try await writableBody(request, context: context)
        let type = try Self.polylineType(context)
        let style = try await service.change(try context.pathParameter("style")) { (coordinator) throws(StyleError) in
            try coordinator.setPolylineStyleOptions(json: body, for: type)
        }
        return Self.json(StyleJSON.encode(style.coordinator.polylineStyleOptions(for: type)), style)
    }

    /// The colour in effect: the traffic colour while traffic is on, else the stroke colour.
    @Sendable func getTrafficColor(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let type = try Self.polylineType(context)
        let speed = try Self.speed(context)
        let style = try await service.style(try context.pathParameter("style"))
        return Self.json(StyleJSON.encode(style.coordinator.trafficColor(for: speed, polyline: type)), style)
    }

    /// PUT sets one colour from a JSON string (null restores it), DELETE restores it; answers
    /// the polyline's options in effect.
    @Sendable func putTrafficColor(_ request: Request, context: TripRequestContext) async throws -> Response {
        let body = try await writableBody(request, context: context)
        let type = try Self.polylineType(context)
        let speed = try Self.speed(context)
        let style = try await service.change(try context.pathParameter("style")) { (coordinator) throws(StyleError) in
            try coordinator.setTrafficColor(json: body, for: speed, polyline: type)
        }
        return Self.json(StyleJSON.encode(style.coordinator.polylineStyleOptions(for: type)), style)
    }

    // MARK: - Helpers

    /// Checks the caller may change styles and returns the body: `null` for DELETE.
    private func writableBody(_ request: Request, context: TripRequestContext) async throws -> [UInt8] {
        try AccessPolicy.requireServerOfAllProviders(try context.caller(), "change styles")
        if request.method == .delete { return Array("null".utf8) }
        return Array(try await request.bodyBytes(context: context).readableBytesView)
    }

    private static func library() throws(StyleError) -> StyleLibrary {
        try StyleService.shipped.get()
    }

    static func markerType(_ context: TripRequestContext) throws(APIError) -> MarkerType {
        let text = try context.pathParameter("markerType")
        guard let type = MarkerType(rawValue: text) else {
            throw .notFound("unknown marker type '\(text.prefix(40))'; expected \(MarkerType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }

    private static func polylineType(_ context: TripRequestContext) throws(APIError) -> PolylineType {
        let text = try context.pathParameter("polylineType")
        guard let type = PolylineType(rawValue: text) else {
            throw .notFound("unknown polyline type '\(text.prefix(40))'; expected \(PolylineType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }

    private static func speed(_ context: TripRequestContext) throws(APIError) -> SpeedType {
        let text = try context.pathParameter("speed")
        guard let speed = SpeedType(pathSegment: text) else {
            throw .notFound(
                "unknown speed '\(text.prefix(40))'; expected \(SpeedType.allCases.map(\.rawValue).joined(separator: ", ")) or NORMAL, SLOW, TRAFFIC_JAM, SPEED_UNSPECIFIED"
            )
        }
        return speed
    }

    /// A JSON answer carrying the style's version as its ETag.
    private static func json(_ body: [UInt8], _ style: StyleService.Style) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .eTag: "\"\(style.version)\""],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
