// A vehicle write as the navigator's orchestration sees it, inside the write's transaction:
// whatever it changes on the vehicle, the navigator state it keeps and the events it returns
// commit together with the write, or not at all. The store keeps the navigator as opaque
// bytes: a small state rewritten with the vehicle, and a route written only when replaced.

import TripModel
import TripStore

/// A vehicle being written, with its stored navigator.
struct VehicleChange {
    /// What caused a write.
    enum Cause: Hashable, Sendable {
        /// The vehicle was updated; `locationUpdated` when the update set `lastLocation`.
        case vehicleUpdated(locationUpdated: Bool)
        /// One of the vehicle's trips changed, was assigned or left; `statusChanged` when a
        /// trip's status moved.
        case tripsChanged(statusChanged: Bool)
        /// The navigator itself was changed (its route or settings).
        case navigatorChanged
    }

    /// The provider.
    let provider: String
    /// The vehicle's ID.
    let vehicleId: String
    /// The vehicle, updated and refreshed; changes made here are saved.
    var vehicle: Vehicle
    /// The server time of the write.
    let now: Timestamp
    /// Why the vehicle is being written.
    let cause: Cause
    /// The vehicle's navigator as stored; changes made here are saved.
    var navigator: StoredNavigator
    /// Where the navigator has the vehicle on its route, as it was saved: what the riders'
    /// distances and times derive from (nil without a navigator on a route).
    var routeProgress: RouteProgress?
}

/// A vehicle's navigator as stored: its state, and its route read from storage only when
/// asked for (a long route is not read or rewritten on every location update).
struct StoredNavigator {
    /// The navigator's moving state; nil when the vehicle has no navigator.
    var state: [UInt8]?
    /// Identifies the stored route (``TripStore/NavigatorRecord/routeVersion``).
    private(set) var routeVersion: Int64
    private let loadRoute: () throws -> [UInt8]?
    /// The replacement route, when ``replaceRoute(_:now:)`` was called.
    private(set) var replacedRoute: [UInt8]??

    /// The navigator of `record`, whose route `loadRoute` reads from the same transaction.
    init(_ record: NavigatorRecord, loadRoute: @escaping () throws -> [UInt8]?) {
        state = record.state
        routeVersion = record.routeVersion
        self.loadRoute = loadRoute
    }

    /// The navigator half of the record to save.
    var record: NavigatorRecord { NavigatorRecord(state: state, routeVersion: routeVersion) }

    /// The stored route (reads it from storage unless it was replaced in this change).
    func route() throws -> [UInt8]? {
        if let replacedRoute { return replacedRoute }
        return try loadRoute()
    }

    /// Replaces the route (nil removes it) and moves ``routeVersion``: it is the microsecond
    /// time of the change, or later, so it never repeats for a vehicle.
    mutating func replaceRoute(_ route: [UInt8]?, now: Timestamp) {
        replacedRoute = .some(route)
        routeVersion = max(routeVersion + 1, now.microseconds)
    }
}
