// The seam through which code above the store (the server's navigator) takes part in the
// store's vehicle writes, inside the same transaction: whatever it changes on the vehicle,
// the navigator state it keeps and the events it returns commit together with the write, or
// not at all. The store knows nothing of navigation: the navigator's state and route are
// opaque bytes to it.

import TripModel

/// Runs inside a store's write transaction each time a vehicle's derived state is
/// refreshed, after the model update and the trip refresh, before the vehicle is saved.
public protocol VehicleUpdateHook: Sendable {
    /// Looks at the change, may alter `change.vehicle` and `change.navigator`, and returns
    /// events to append after the store's own. Throwing aborts the whole write.
    func vehicleDidChange(_ change: inout VehicleChange) throws -> [NewEvent]
}

/// A vehicle write as a ``VehicleUpdateHook`` sees it.
public struct VehicleChange {
    /// What caused a write.
    public enum Cause: Hashable, Sendable {
        /// The vehicle was updated; `locationUpdated` when the update set `lastLocation`.
        case vehicleUpdated(locationUpdated: Bool)
        /// One of the vehicle's trips changed, was assigned or left; `statusChanged` when a
        /// trip's status moved.
        case tripsChanged(statusChanged: Bool)
        /// ``TripStore/updateNavigator(provider:vehicleId:change:)`` was called.
        case navigatorChanged
    }

    /// The provider.
    public let provider: String
    /// The vehicle's ID.
    public let vehicleId: String
    /// The vehicle, updated and refreshed; changes made here are saved.
    public var vehicle: Vehicle
    /// The vehicle's unfinished trips, in driving order, as refreshed.
    public let trips: [Trip]
    /// The server time of the write.
    public let now: Timestamp
    /// Why the vehicle is being written.
    public let cause: Cause
    /// The vehicle's navigator as stored; changes made here are saved.
    public var navigator: StoredNavigator

    init(provider: String, vehicleId: String, vehicle: Vehicle, trips: [Trip], now: Timestamp, cause: Cause,
         navigator: StoredNavigator) {
        self.provider = provider
        self.vehicleId = vehicleId
        self.vehicle = vehicle
        self.trips = trips
        self.now = now
        self.cause = cause
        self.navigator = navigator
    }
}

/// A vehicle's navigator as the store keeps it: a small state rewritten with the vehicle,
/// and a route written only when it is replaced (so a long route is not rewritten on every
/// location update). Both are opaque bytes to the store.
public struct StoredNavigator {
    /// The navigator's moving state; nil when the vehicle has no navigator.
    public var state: [UInt8]?
    /// Identifies the stored route: it changes whenever the route is replaced, and never
    /// repeats for a vehicle (it is the microsecond time of the change, or later), so a
    /// reader may cache the decoded route under it. 0 when no route was ever stored.
    public private(set) var routeVersion: Int64
    private let loadRoute: () throws -> [UInt8]?
    /// The replacement route, when ``replaceRoute(_:now:)`` was called.
    private(set) var replacedRoute: [UInt8]??

    init(state: [UInt8]?, routeVersion: Int64, loadRoute: @escaping () throws -> [UInt8]?) {
        self.state = state
        self.routeVersion = routeVersion
        self.loadRoute = loadRoute
    }

    /// The stored route (reads it from storage unless it was replaced in this change).
    public func route() throws -> [UInt8]? {
        if let replacedRoute { return replacedRoute }
        return try loadRoute()
    }

    /// Replaces the route (nil removes it) and moves ``routeVersion``.
    public mutating func replaceRoute(_ route: [UInt8]?, now: Timestamp) {
        replacedRoute = .some(route)
        routeVersion = max(routeVersion + 1, now.microseconds)
    }
}

/// The navigator half of a vehicle record.
struct NavigatorRecord: Hashable, Sendable {
    var state: [UInt8]?
    var routeVersion: Int64 = 0
}
