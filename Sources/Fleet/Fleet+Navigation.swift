import Geo
import JSON
import Navigation
import Styling
import TripModel
import TripStore

extension Fleet {
    /// Gives a vehicle a route with steps (`navigatorDidChangeRoute`): its navigator starts
    /// on it, its currentRouteSegment becomes the leg to the first destination, and its trips
    /// are refreshed, in one write. Returns the navigator's NavInfo; INVALID_ARGUMENT names
    /// the route's field at fault.
    package func setRoute(provider: String, vehicleId: String, route: NavRoute) async throws -> NavInfo {
        let points: [LatLng]
        do {
            points = try route.validate()
        } catch {
            throw StatusError.invalid("route.\(error.path)", error.message)
        }
        let routeJSON = [UInt8](try JSONCoding.encode(route))
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
    package func clearRoute(provider: String, vehicleId: String) async throws {
        let navigators = navigators
        try await write { writes, tx, now in
            try writes.updateNavigator(tx, provider: provider, id: vehicleId, now: now) { change in
                (try navigators.clearRoute(in: &change), ())
            }
        }
    }

    /// The vehicle's navigator settings in force (the defaults when none were set).
    package func navigatorSettings(provider: String, vehicleId: String) async throws -> NavigatorSettings {
        try await readNavigator(provider: provider, vehicleId: vehicleId)?.settings ?? NavigatorSettings()
    }

    /// Replaces the vehicle's navigator settings; they apply from the next update (a vehicle
    /// without a navigator gets one, without a route).
    package func setNavigatorSettings(_ settings: NavigatorSettings, provider: String, vehicleId: String) async throws {
        let navigators = navigators
        _ = try await write { writes, tx, now in
            try writes.updateNavigator(tx, provider: provider, id: vehicleId, now: now) { change in
                ([NewEvent](), try navigators.setSettings(settings, in: &change))
            }
        }
    }

    /// The vehicle's navigation UI settings in effect (DESIGN §9) and their version; NOT_FOUND
    /// for an unknown vehicle.
    package func navigationUISettings(provider: String, vehicleId: String) async throws -> VehicleNavigationUISettings {
        try await store.read { reader in
            guard try reader.vehicleRecord(provider: provider, id: vehicleId) != nil else { throw FleetWrites.notFound("vehicle", vehicleId) }
            return VehicleNavigationUISettings(try reader.navigationUISettings(provider: provider, vehicleId: vehicleId))
        }
    }

    /// Applies a JSON body to the vehicle's navigation UI settings with DESIGN §9's semantics
    /// (named members change, `null` restores a member's default, a `null` body all of
    /// them) and returns the settings in effect. A body that is not acceptable is refused with
    /// INVALID_ARGUMENT naming the field, and nothing changes. A change applies at once and
    /// is logged on the vehicle's event stream.
    package func updateNavigationUISettings(provider: String, vehicleId: String, json: [UInt8]) async throws -> VehicleNavigationUISettings {
        let body: JSONValue
        do {
            body = try JSONParser.parse(json)
        } catch {
            throw StatusError.invalid(NavigationUISettings.jsonRoot, error.description)
        }
        return try await write { writes, tx, now in
            try writes.updateNavigationUISettings(tx, provider: provider, id: vehicleId, now: now) { current in
                do throws(JSONInputError) {
                    return try current.applying(body)
                } catch {
                    throw StatusError(error)
                }
            }
        }
    }

    /// Restores every navigation UI setting of the vehicle to its default.
    package func resetNavigationUISettings(provider: String, vehicleId: String) async throws -> VehicleNavigationUISettings {
        try await write { writes, tx, now in
            try writes.updateNavigationUISettings(tx, provider: provider, id: vehicleId, now: now) { _ in NavigationUISettings() }
        }
    }

    /// Everything the vehicle's driver screen is drawn from, read in one snapshot; NOT_FOUND
    /// for an unknown vehicle.
    package func navigationScreenInputs(provider: String, vehicleId: String) async throws -> NavigationScreenInputs {
        let navigators = navigators
        let (read, navigator, trips) = try await store.read { reader in
            let (vehicle, stored) = try FleetWrites.storedNavigator(reader, provider: provider, id: vehicleId)
            let navigator = try navigators.navigator(stored, provider: provider, vehicleId: vehicleId)
            let route = navigator?.route
            let finalDestination = (route?.destinations.count ?? 0) - 1
            let inputs = NavigationScreenInputs(
                vehicle: vehicle, navInfo: navigator?.navInfo ?? NavInfo(navState: .stopped), route: route,
                routeVersion: route == nil ? 0 : stored.routeVersion, snappedLocation: navigator?.lastLocation,
                arrived: finalDestination >= 0 && navigator?.arrivedDestinationIndex == finalDestination, stop: nil,
                navigatorSettings: navigator?.settings ?? NavigatorSettings(),
                uiSettings: VehicleNavigationUISettings(try reader.navigationUISettings(provider: provider, vehicleId: vehicleId)))
            return (inputs, navigator, try reader.unfinishedTrips(provider: provider, vehicleId: vehicleId))
        }
        // Only a vehicle without trips can have just finished one: the log is read only then.
        let lastStatus = trips.isEmpty ? try await lastTripStatus(provider: provider, vehicleId: vehicleId) : nil
        var inputs = read
        inputs.stop = Self.driverStop(navigator: navigator, trips: trips, lastTripStatus: lastStatus)
        return inputs
    }

    /// The vehicle's NavInfo with every remaining step (`stopped` when it has no route).
    package func navInfo(provider: String, vehicleId: String) async throws -> NavInfo {
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
