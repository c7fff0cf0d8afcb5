// The vehicles' navigators: one Navigation.Navigator per routed vehicle, run inside Fleet's
// vehicle writes (FleetWrites), so its events and the vehicle's navigationStatus commit with
// the location that caused them. This is the only place that knows both how the store keeps
// a navigator and the navigator itself; both stay ignorant of each other. The rules of
// guidance live here too: how a navigator's state maps to the vehicle's navigationStatus,
// who may see its events (the shared-ride privacy rule), and that a new route sets the
// vehicle's currentRouteSegment.
//
// The store keeps the navigator as two opaque blobs: the route (JSON of NavRoute, written
// when replaced) and the progress (JSON of Navigator.Progress, written with every update).
// Decoding a long route per update would cost more than navigating it, so decoded
// navigators are cached by vehicle, keyed by the route's version and the exact progress
// bytes they were last saved with: a cache entry is used only when the store holds exactly
// what it describes, so the store stays the source of truth (a restart, or another process
// writing the same database, just misses the cache).

import Caching
import Foundation
import Geo
import JSON
import Navigation
import TripModel
import TripStore

/// Runs each routed vehicle's navigator inside Fleet's vehicle writes.
final class VehicleNavigators: Sendable {
    /// Remaining steps listed in a `didUpdateNavInfo` event (all are counted); the full list
    /// is at `GET .../navInfo`.
    static let eventStepLimit = 3

    struct CacheEntry {
        var routeVersion: Int64
        var state: [UInt8]
        var navigator: Navigator
    }

    private let cache: BoundedCache<VehicleKey, CacheEntry>
    /// Told the time spent per routed vehicle write (load, update, save): the navigator's cost.
    private let updateDuration: (@Sendable (Duration) -> Void)?

    /// Creates the navigators; at most `cacheCapacity` decoded navigators stay in memory.
    init(cacheCapacity: Int = 4_096, updateDuration: (@Sendable (Duration) -> Void)? = nil) {
        cache = BoundedCache(capacity: cacheCapacity)
        self.updateDuration = updateDuration
    }

    // MARK: - Vehicle writes

    func vehicleDidChange(_ change: inout VehicleChange) throws -> [NewEvent] {
        guard change.navigator.state != nil else { return [] }
        let started = ContinuousClock.now
        defer { updateDuration?(ContinuousClock.now - started) }
        guard var navigator = try load(change.navigator, provider: change.provider, vehicleId: change.vehicleId) else {
            // Unreadable (written by an incompatible version): guidance ends rather than
            // blocking every write of the vehicle.
            change.navigator.state = nil
            change.navigator.replaceRoute(nil, now: change.now)
            change.vehicle.navigationStatus = .noGuidance
            return []
        }
        guard navigator.route != nil else { return [] }
        var events: [NavEvent] = []
        switch change.cause {
        case .vehicleUpdated(locationUpdated: true):
            guard let reported = change.vehicle.lastLocation, let location = reported.location else { break }
            let leg = navigator.currentLeg
            // The device's time: the jump filter judges speeds between fixes by it.
            events = navigator.update(
                location: location, heading: reported.heading, speedMetersPerSecond: reported.speed,
                accuracyMeters: reported.latlngAccuracy, time: (reported.updateTime ?? change.now).date)
            // Past a destination, the vehicle's route segment becomes the leg to the next one
            // (Fleet Engine's currentRouteSegment runs to the next waypoint).
            if navigator.currentLeg != leg, let segment = navigator.currentLegPolyline {
                try setRouteSegment(segment, in: &change)
            }
        case .tripsChanged(statusChanged: true):
            navigator.acknowledgeArrival()
        case .vehicleUpdated, .tripsChanged, .navigatorChanged:
            break
        }
        change.vehicle.navigationStatus = Self.navigationStatus(navigator)
        try save(navigator, into: &change)
        return Self.logged(events, change: change)
    }

    // MARK: - Navigator changes (inside FleetWrites.updateNavigator)

    /// Sets `route` (already validated into `points`, encoded as `routeJSON`): the vehicle's
    /// currentRouteSegment becomes the leg to the first destination.
    func setRoute(_ route: NavRoute, points: [LatLng], routeJSON: [UInt8], in change: inout VehicleChange) throws -> [NewEvent] {
        var navigator = (try? load(change.navigator, provider: change.provider, vehicleId: change.vehicleId)) ?? Navigator()
        let events = try navigator.setRoute(route, at: change.now.date)
        change.navigator.replaceRoute(routeJSON, now: change.now)
        try setRouteSegment(route.firstLegPolyline(points: points), in: &change)
        change.vehicle.navigationStatus = Self.navigationStatus(navigator)
        try save(navigator, into: &change)
        return Self.logged(events, change: change)
    }

    /// Ends guidance: no route, `NO_GUIDANCE`; the settings stay.
    func clearRoute(in change: inout VehicleChange) throws -> [NewEvent] {
        guard var navigator = try load(change.navigator, provider: change.provider, vehicleId: change.vehicleId),
            navigator.route != nil
        else { return [] }
        let events = navigator.clearRoute(at: change.now.date)
        change.navigator.replaceRoute(nil, now: change.now)
        change.vehicle.navigationStatus = .noGuidance
        try save(navigator, into: &change)
        return Self.logged(events, change: change)
    }

    /// Replaces the navigator's settings (a vehicle without a navigator gets one, without a route).
    func setSettings(_ settings: NavigatorSettings, in change: inout VehicleChange) throws -> NavigatorSettings {
        var navigator = try load(change.navigator, provider: change.provider, vehicleId: change.vehicleId) ?? Navigator()
        navigator.settings = settings
        try save(navigator, into: &change)
        return settings
    }

    /// The vehicle's navigator as stored, or nil when it has none.
    func navigator(_ stored: StoredNavigator, provider: String, vehicleId: String) throws -> Navigator? {
        guard stored.state != nil else { return nil }
        return try load(stored, provider: provider, vehicleId: vehicleId)
    }

    // MARK: - Internals

    /// Sets the vehicle's currentRouteSegment as an update of that field would.
    private func setRouteSegment(_ segment: String, in change: inout VehicleChange) throws {
        var input = Vehicle(name: "")
        input.currentRouteSegment = segment
        try change.vehicle.apply(input, mask: FieldMask("currentRouteSegment"), now: change.now)
    }

    /// The vehicle's navigationStatus for a navigator with a route.
    static func navigationStatus(_ navigator: Navigator) -> NavigationStatus {
        guard navigator.route != nil else { return .noGuidance }
        if navigator.arrivedDestinationIndex != nil { return .arrivedAtDestination }
        switch navigator.navInfo.navState {
        case .enroute: return .enrouteToDestination
        case .rerouting: return .offRoute
        case .stopped: return .noGuidance
        }
    }

    /// The navigator's progress as the riders' trip state takes it (DESIGN §5): nil while it
    /// has no destination ahead (no route, stopped, arrived at the final destination).
    static func routeProgress(_ navigator: Navigator) -> RouteProgress? {
        let ahead = navigator.destinationsAhead
        guard !ahead.isEmpty else { return nil }
        return RouteProgress(
            position: navigator.positionOnRoute,
            destinations: ahead.map {
                RouteProgress.Destination(
                    location: $0.location, distanceMeters: $0.distanceMeters, durationSeconds: $0.timeSeconds,
                    previousLocation: $0.previousLocation, pathFromPrevious: $0.pathFromPrevious)
            })
    }

    /// The stored navigator, from the cache when it holds exactly what is stored; nil when
    /// there is none or it cannot be read.
    private func load(_ stored: StoredNavigator, provider: String, vehicleId: String) throws -> Navigator? {
        guard let state = stored.state else { return nil }
        let key = VehicleKey(provider: provider, id: vehicleId)
        let cached = cache.value(forKey: key)
        if let cached, cached.routeVersion == stored.routeVersion {
            if cached.state == state { return cached.navigator }
            guard let progress = try? JSONCoding.decode(Navigator.Progress.self, from: state, root: "navigator") else { return nil }
            var navigator = cached.navigator
            navigator.restore(progress)
            return navigator
        }
        guard let progress = try? JSONCoding.decode(Navigator.Progress.self, from: state, root: "navigator") else { return nil }
        let route = try stored.route().flatMap { try? JSONCoding.decode(NavRoute.self, from: $0, root: "route") }
        guard let navigator = try? Navigator(route: route, progress: progress) else { return nil }
        remember(navigator, state: state, routeVersion: stored.routeVersion, key: key)
        return navigator
    }

    /// Stores the navigator's progress in the change and caches it under what was stored.
    private func save(_ navigator: Navigator, into change: inout VehicleChange) throws {
        let state = try JSONStreamEncoder().encode(navigator.progress)
        change.navigator.state = state
        change.routeProgress = Self.routeProgress(navigator)
        remember(
            navigator, state: state, routeVersion: change.navigator.routeVersion,
            key: VehicleKey(provider: change.provider, id: change.vehicleId))
    }

    private func remember(_ navigator: Navigator, state: [UInt8], routeVersion: Int64, key: VehicleKey) {
        cache.setValue(CacheEntry(routeVersion: routeVersion, state: state, navigator: navigator), forKey: key)
    }

    /// The navigator's events as log entries. Riders see them only while the vehicle serves
    /// their trip alone: on a shared ride the steps and arrivals name other riders' stops.
    static func logged(_ events: [NavEvent], change: VehicleChange) -> [NewEvent] {
        let audience = change.vehicle.currentTrips.count == 1 ? change.vehicle.currentTrips : []
        return events.map { event in
            let payload: NavEvent
            if case .didUpdateNavInfo(let info) = event {
                payload = .didUpdateNavInfo(info.limitingRemainingSteps(to: eventStepLimit))
            } else {
                payload = event
            }
            let data = (try? JSONCoding.encodeText(payload)) ?? "{}"
            return NewEvent(time: change.now, vehicleId: change.vehicleId, tripIds: audience, type: event.name, data: data)
        }
    }
}
