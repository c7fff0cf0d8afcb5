import Access
import Fleet
import Foundation
import Hummingbird
import JSON
import Navigation
import TripModel

/// A vehicle's route with steps, its navigator's settings and its NavInfo (DESIGN §8).
struct NavigationRoutes {
    let fleet: Fleet

    /// A route body may be this large: the 13,444 km Portugal–Korea route with per-segment
    /// durations is about 5 MB of JSON.
    static let maxRouteBodySize = 16 * 1024 * 1024

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.put("/v1/providers/{provider}/vehicles/{vehicleId}/route", use: putRoute)
        router.delete("/v1/providers/{provider}/vehicles/{vehicleId}/route", use: deleteRoute)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navigatorSettings", use: getSettings)
        router.put("/v1/providers/{provider}/vehicles/{vehicleId}/navigatorSettings", use: putSettings)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}/navInfo", use: navInfo)
    }

    /// `PUT .../route`: sets the route (`navigatorDidChangeRoute`) and answers the NavInfo.
    @Sendable func putRoute(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: true)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxRouteBodySize)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.invalid("route: the request body is larger than \(Self.maxRouteBodySize) bytes")
        }
        if body.readableBytes == 0 { throw APIError.invalid("route: the request body is empty; send a route JSON object") }
        let route = try Request.decode(NavRoute.self, from: body, root: "route", limits: context.limits.json)
        let info = try await fleet.setRoute(provider: provider, vehicleId: id, route: route)
        return try JSONResponse.make(info)
    }

    /// `DELETE .../route`: ends guidance (`NO_GUIDANCE`).
    @Sendable func deleteRoute(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: true)
        try await fleet.clearRoute(provider: provider, vehicleId: id)
        return JSONResponse.empty()
    }

    /// `GET .../navigatorSettings`: the settings in force (the defaults when none were set).
    @Sendable func getSettings(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: false)
        return try JSONResponse.make(SettableNavigatorSettings(try await fleet.navigatorSettings(provider: provider, vehicleId: id)))
    }

    /// `PUT .../navigatorSettings`: replaces the settings; they apply from the next update.
    @Sendable func putSettings(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: true)
        let body = try await request.decodeBody(SettableNavigatorSettings.self, root: "navigatorSettings", context: context)
        let settings: NavigatorSettings
        do { settings = try body.settings() } catch { throw APIError(StatusError(error)) }
        try await fleet.setNavigatorSettings(settings, provider: provider, vehicleId: id)
        return try JSONResponse.make(SettableNavigatorSettings(settings))
    }

    /// `GET .../navInfo`: the navigator's NavInfo with every remaining step (`stopped` when
    /// the vehicle has no route).
    @Sendable func navInfo(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try context.vehicle(write: false)
        return try JSONResponse.make(try await fleet.navInfo(provider: provider, vehicleId: id))
    }
}
