import Geo
import Navigation
import TripModel
import TripStore

extension Fleet {
    /// Gives a vehicle a route with steps (`navigatorDidChangeRoute`): its navigator starts
    /// on it, its currentRouteSegment becomes the leg to the first destination, and its trips
    /// are refreshed, in one write. Returns the navigator's NavInfo; INVALID_ARGUMENT names
    /// the route's field at fault.
    public func setRoute(provider: String, vehicleId: String, route: NavRoute) async throws -> NavInfo {
        let points: [LatLng]
        do {
            points = try route.validate()
        } catch {
            throw FleetError.invalid("route.\(error.path)", error.message)
        }
        let routeJSON = [UInt8](try FleetJSON.encode(route))
        let navigators = navigators
        let info = try await write { writes, tx, now in
            try writes.updateNavigator(tx, provider: provider, id: vehicleId, now: now) { change in
                let events = try navigators.setRoute(route, points: points, routeJSON: routeJSON, in: &change)
                let info = try navigators.navigator(change.navigator, provider: provider, vehicleId: vehicleId)?.navInfo
                return (events, info)
            }
        }
        return info ?? NavInfo(navState: .stopped)
    }

    /// Ends a vehicle's guidance: no route, `NO_GUIDANCE`; its settings stay.
    public func clearRoute(provider: String, vehicleId: String) async throws {
        let navigators = navigators
        try await write { writes, tx, now in
            try writes.updateNavigator(tx, provider: provider, id: vehicleId, now: now) { change in
                (try navigators.clearRoute(in: &change), ())
            }
        }
    }

    /// The vehicle's navigator settings in force (the defaults when none were set).
    public func navigatorSettings(provider: String, vehicleId: String) async throws -> NavigatorSettings {
        try await readNavigator(provider: provider, vehicleId: vehicleId)?.settings ?? NavigatorSettings()
    }

    /// Replaces the vehicle's navigator settings; they apply from the next update (a vehicle
    /// without a navigator gets one, without a route).
    public func setNavigatorSettings(_ settings: NavigatorSettings, provider: String, vehicleId: String) async throws {
        let navigators = navigators
        _ = try await write { writes, tx, now in
            try writes.updateNavigator(tx, provider: provider, id: vehicleId, now: now) { change in
                ([NewEvent](), try navigators.setSettings(settings, in: &change))
            }
        }
    }

    /// The vehicle's NavInfo with every remaining step (`stopped` when it has no route).
    public func navInfo(provider: String, vehicleId: String) async throws -> NavInfo {
        try await readNavigator(provider: provider, vehicleId: vehicleId)?.navInfo ?? NavInfo(navState: .stopped)
    }

    /// The vehicle's navigator as stored, read in one snapshot; nil when it has none,
    /// NOT_FOUND for an unknown vehicle.
    private func readNavigator(provider: String, vehicleId: String) async throws -> Navigator? {
        let navigators = navigators
        return try await store.read { reader in
            let (_, stored) = try FleetWrites.storedNavigator(reader, provider: provider, id: vehicleId)
            return try navigators.navigator(stored, provider: provider, vehicleId: vehicleId)
        }
    }
}
