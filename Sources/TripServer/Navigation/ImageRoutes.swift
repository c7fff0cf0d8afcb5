import Access
import Caching
import Fleet
import Hummingbird
import Navigation
import Raster
import Render

/// Maneuver icons and lane images (DESIGN §3, §8).
struct ImageRoutes {
    let fleet: Fleet
    /// Icons by "maneuver/size/scale/lighting": there are 66 × 2 × 3 × 2 of them at most,
    /// and each never changes, so all of them fit.
    let icons = BoundedCache<String, [UInt8]>(capacity: 1_024)

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/maneuvers/{maneuver}.png", use: maneuverIcon)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navInfo/lanes.png", use: laneImage)
    }

    /// `GET /v1/maneuvers/{maneuver}.png?size=&scale=&lighting=`: any authenticated caller.
    @Sendable func maneuverIcon(_ request: Request, context: TripRequestContext) async throws -> Response {
        _ = try context.caller()
        let name = try context.pathParameter("maneuver")
        guard let maneuver = Maneuver(rawValue: name) else {
            throw APIError.notFound("maneuver '\(name.prefix(64))' does not exist; maneuvers are the 66 GMSNavigationManeuver names in lowerCamel")
        }
        let sizeText = request.query("size") ?? ManeuverIconSize.square48.rawValue
        guard let size = ManeuverIconSize(rawValue: sizeText) else {
            throw APIError.invalid("size: '\(sizeText.prefix(32))' is not square48 or square96")
        }
        let scale = try request.integerQuery("scale", ManeuverIcon.scales) ?? 1
        let lighting = try Self.lighting(request)
        let png = try icons.value(forKey: "\(maneuver.rawValue)/\(size.rawValue)/\(scale)/\(lighting.rawValue)") {
            try ManeuverIcon.png(maneuver, size: size, scale: scale, lighting: lighting)
        }
        return Self.png(png, cacheControl: "public, max-age=86400")
    }

    /// `GET .../vehicles/{id}/navInfo/lanes.png?scale=&lighting=`: the lanes at the current
    /// step's maneuver; 404 when it has none. Driver of the vehicle or server.
    @Sendable func laneImage(_ request: Request, context: TripRequestContext) async throws -> Response {
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(try context.caller(), vehicleId: id, write: false)
        let provider = try context.pathParameter("provider")
        let scale = try request.integerQuery("scale", ManeuverIcon.scales) ?? 1
        let lighting = try Self.lighting(request)
        let lanes = try await fleet.navInfo(provider: provider, vehicleId: id).currentStep?.lanes ?? []
        guard let image = LaneImage.image(lanes, scale: scale, lighting: lighting) else {
            throw APIError.notFound("the vehicle's current step has no lane data")
        }
        return Self.png(try PNGCodec.encode(image), cacheControl: "no-store")
    }

    static func lighting(_ request: Request) throws(APIError) -> LightingMode {
        let text = request.query("lighting") ?? LightingMode.normal.rawValue
        guard let lighting = LightingMode(rawValue: text) else {
            throw .invalid("lighting: '\(text.prefix(32))' is not normal or lowLight")
        }
        return lighting
    }

    static func png(_ bytes: [UInt8], cacheControl: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/png", .cacheControl: cacheControl],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
