import Fleet
import Hummingbird
import Styling

/// `GET|PUT|DELETE .../vehicles/{id}/navigationUISettings` (DESIGN §9): what the vehicle's
/// driver screen shows, with the style coordinator's semantics (a member set to `null` returns
/// to its default, `DELETE` restores all, reading gives what is in effect). The server or the
/// vehicle's own driver may read and write them. Every answer carries the settings in effect
/// and their version as the `ETag`.
struct NavigationUISettingsRoutes {
    let fleet: Fleet

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navigationUISettings", use: get)
        router.put("/v1/providers/{provider}/vehicles/{vehicleId}/navigationUISettings", use: put)
        router.delete("/v1/providers/{provider}/vehicles/{vehicleId}/navigationUISettings", use: delete)
    }

    /// `GET`: the settings in effect.
    @Sendable func get(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: false)
        return Self.response(try await fleet.navigationUISettings(provider: provider, vehicleId: id))
    }

    /// `PUT`: applies the body's members; answers the settings in effect.
    @Sendable func put(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: true)
        let body = try await request.bodyBytes(context: context)
        if body.readableBytes == 0 {
            throw APIError.invalid("\(NavigationUISettings.jsonRoot): the request body is empty; send a JSON object of the settings to change")
        }
        let updated = try await fleet.updateNavigationUISettings(provider: provider, vehicleId: id, json: Array(body.readableBytesView))
        return Self.response(updated)
    }

    /// `DELETE`: every setting back to its default; answers the defaults.
    @Sendable func delete(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: true)
        let updated = try await fleet.resetNavigationUISettings(provider: provider, vehicleId: id)
        return Self.response(updated)
    }

    static func response(_ current: VehicleNavigationUISettings) -> Response {
        var response = JSONResponse.bytes(current.settings.encodedJSON())
        response.headers[.eTag] = "\"s\(current.version)\""
        response.headers[.cacheControl] = "private, no-cache"
        return response
    }
}
