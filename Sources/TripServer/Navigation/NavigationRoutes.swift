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
    let broadcaster: EventBroadcaster

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

    /// The vehicle a request names, after checking the caller may act for it.
    private func vehicle(_ context: TripRequestContext, write: Bool) throws -> (provider: String, id: String) {
        let id = try context.pathParameter("vehicleId")
        // NavInfo and routes are the driver's screen: DESIGN §4 gives vehicle reads to the
        // vehicle's driver and the server only. A rider follows its trip's event stream,
        // which carries the navigator's events while the vehicle serves that trip alone.
        try AccessPolicy.checkVehicle(try context.caller(), vehicleId: id, write: write)
        return (try context.pathParameter("provider"), id)
    }

    /// `PUT .../route`: sets the route (`navigatorDidChangeRoute`) and answers the NavInfo.
    @Sendable func putRoute(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try vehicle(context, write: true)
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maxRouteBodySize)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.invalid("route: the request body is larger than \(Self.maxRouteBodySize) bytes")
        }
        if body.readableBytes == 0 { throw APIError.invalid("route: the request body is empty; send a route JSON object") }
        let route: NavRoute
        do {
            route = try StrictJSONDecoder().decode(NavRoute.self, from: body.readableBytesView, root: "route")
        } catch {
            throw APIError(StatusError(error))
        }
        let info = try await fleet.setRoute(provider: provider, vehicleId: id, route: route)
        broadcaster.poke()
        return try JSONResponse.make(info)
    }

    /// `DELETE .../route`: ends guidance (`NO_GUIDANCE`).
    @Sendable func deleteRoute(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try vehicle(context, write: true)
        try await fleet.clearRoute(provider: provider, vehicleId: id)
        broadcaster.poke()
        return JSONResponse.empty()
    }

    /// The settable part of a navigator's settings; a field left out takes its default.
    struct SettingsBody: Codable {
        var timeUpdateThreshold: Double?
        var distanceUpdateThreshold: Double?
        var minorSpeedAlertThresholdKph: Double?
        var majorSpeedAlertThresholdKph: Double?

        init(_ settings: NavigatorSettings) {
            timeUpdateThreshold = settings.timeUpdateThreshold
            distanceUpdateThreshold = settings.distanceUpdateThreshold
            minorSpeedAlertThresholdKph = settings.minorSpeedAlertThresholdKph
            majorSpeedAlertThresholdKph = settings.majorSpeedAlertThresholdKph
        }

        /// The settings this body asks for, or a 400 naming the field at fault.
        func settings() throws(APIError) -> NavigatorSettings {
            let defaults = NavigatorSettings()
            func value(_ v: Double?, _ name: String, _ fallback: Double) throws(APIError) -> Double {
                guard let v else { return fallback }
                guard v.isFinite, (0...1_000_000).contains(v) else {
                    throw .invalid("navigatorSettings.\(name): must be a number in [0, 1000000]")
                }
                return v
            }
            var settings = defaults
            settings.timeUpdateThreshold = try value(timeUpdateThreshold, "timeUpdateThreshold", defaults.timeUpdateThreshold)
            settings.distanceUpdateThreshold = try value(
                distanceUpdateThreshold, "distanceUpdateThreshold", defaults.distanceUpdateThreshold)
            settings.minorSpeedAlertThresholdKph = try value(
                minorSpeedAlertThresholdKph, "minorSpeedAlertThresholdKph", defaults.minorSpeedAlertThresholdKph)
            settings.majorSpeedAlertThresholdKph = try value(
                majorSpeedAlertThresholdKph, "majorSpeedAlertThresholdKph", defaults.majorSpeedAlertThresholdKph)
            guard settings.majorSpeedAlertThresholdKph >= settings.minorSpeedAlertThresholdKph else {
                throw .invalid("navigatorSettings.majorSpeedAlertThresholdKph: must not be below minorSpeedAlertThresholdKph")
            }
            return settings
        }
    }

    /// `GET .../navigatorSettings`: the settings in force (the defaults when none were set).
    @Sendable func getSettings(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try vehicle(context, write: false)
        return try JSONResponse.make(SettingsBody(try await fleet.navigatorSettings(provider: provider, vehicleId: id)))
    }

    /// `PUT .../navigatorSettings`: replaces the settings; they apply from the next update.
    @Sendable func putSettings(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try vehicle(context, write: true)
        let settings = try await request.decodeBody(SettingsBody.self, root: "navigatorSettings", context: context).settings()
        try await fleet.setNavigatorSettings(settings, provider: provider, vehicleId: id)
        return try JSONResponse.make(SettingsBody(settings))
    }

    /// `GET .../navInfo`: the navigator's NavInfo with every remaining step (`stopped` when
    /// the vehicle has no route).
    @Sendable func navInfo(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (provider, id) = try vehicle(context, write: false)
        return try JSONResponse.make(try await fleet.navInfo(provider: provider, vehicleId: id))
    }
}
