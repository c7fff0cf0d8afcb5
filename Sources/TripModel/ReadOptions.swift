// What a GetTrip or GetVehicle asks for beyond the resource (Fleet Engine GetTripRequest,
// GetVehicleRequest): a rider's app polls with the versions it has and gets a field only
// when it changed since, to save bytes; `routeFormatType` picks how routes are written.

/// How a trip's routes are written in an answer (Fleet Engine `PolylineFormatType`).
package enum PolylineFormatType: String, WireEnum {
    /// `route` and each waypoint's `pathToWaypoint`, as lists of points.
    case latLngList = "LAT_LNG_LIST_TYPE"
    /// `currentRouteSegment` and each waypoint's `encodedPathToWaypoint`, as encoded polylines.
    case encodedPolyline = "ENCODED_POLYLINE_TYPE"

    package static var unsetName: String? { "UNKNOWN_FORMAT_TYPE" }
}

/// The parameters of a GetTrip.
package struct TripReadOptions: Hashable, Sendable {
    /// Which fields, for whom.
    package var view: TripView
    /// `route` and `currentRouteSegment` only when they changed after this.
    package var currentRouteSegmentVersion: Timestamp?
    /// `remainingWaypoints` only when they changed after this (deprecated in Fleet Engine,
    /// which now always returns them; honoured as it was).
    package var remainingWaypointsVersion: Timestamp?
    /// How routes are written; nil writes both forms where the view has them.
    package var routeFormatType: PolylineFormatType?
    /// `currentRouteSegmentTraffic` only when it changed after this.
    package var currentRouteSegmentTrafficVersion: Timestamp?
    /// The waypoints' paths and traffic only when they changed after this.
    package var remainingWaypointsRouteVersion: Timestamp?

    /// Options for a read in `view`, with nothing else asked.
    package init(view: TripView) { self.view = view }

    /// Whether the answer is the view alone (what caches of encoded views hold).
    package var isPlainView: Bool { self == TripReadOptions(view: view) }
}

/// The parameters of a GetVehicle.
package struct VehicleReadOptions: Hashable, Sendable {
    /// `currentRouteSegment` only when it changed after this.
    package var currentRouteSegmentVersion: Timestamp?
    /// `waypoints` only when they changed after this.
    package var waypointsVersion: Timestamp?

    /// Options asking for everything.
    package init(currentRouteSegmentVersion: Timestamp? = nil, waypointsVersion: Timestamp? = nil) {
        self.currentRouteSegmentVersion = currentRouteSegmentVersion
        self.waypointsVersion = waypointsVersion
    }
}

extension Trip {
    /// The trip as a GetTrip with `options` returns it: the view, less what did not change
    /// since the versions given, with routes in the format asked for.
    package func rendered(_ options: TripReadOptions) -> Trip {
        var shown = rendered(as: options.view)
        if unchanged(currentRouteSegmentVersion, since: options.currentRouteSegmentVersion) {
            shown.route = []
            shown.currentRouteSegment = nil
        }
        if unchanged(currentRouteSegmentTrafficVersion, since: options.currentRouteSegmentTrafficVersion) {
            shown.currentRouteSegmentTraffic = nil
        }
        if unchanged(remainingWaypointsVersion, since: options.remainingWaypointsVersion) { shown.remainingWaypoints = [] }
        if unchanged(remainingWaypointsRouteVersion, since: options.remainingWaypointsRouteVersion) {
            for i in shown.remainingWaypoints.indices {
                shown.remainingWaypoints[i].encodedPathToWaypoint = nil
                shown.remainingWaypoints[i].trafficToWaypoint = nil
            }
        }
        switch options.routeFormatType {
        case .latLngList?:
            shown.currentRouteSegment = nil
            for i in shown.remainingWaypoints.indices {
                guard let encoded = shown.remainingWaypoints[i].encodedPathToWaypoint else { continue }
                shown.remainingWaypoints[i].pathToWaypoint = (try? RouteGeometry.decode(encoded, path: "")) ?? []
                shown.remainingWaypoints[i].encodedPathToWaypoint = nil
            }
        case .encodedPolyline?:
            shown.route = []
        case nil:
            break
        }
        return shown
    }
}

extension Vehicle {
    /// The vehicle as a GetVehicle with `options` returns it: without what did not change
    /// since the versions given.
    package func rendered(_ options: VehicleReadOptions) -> Vehicle {
        var shown = self
        if unchanged(currentRouteSegmentVersion, since: options.currentRouteSegmentVersion) { shown.currentRouteSegment = nil }
        if unchanged(waypointsVersion, since: options.waypointsVersion) { shown.waypoints = [] }
        return shown
    }
}

/// Whether a field whose content last changed at `version` is unchanged since `since` (the
/// version a client already has; nil asks for the field whatever its version).
private func unchanged(_ version: Timestamp?, since: Timestamp?) -> Bool {
    guard let since else { return false }
    guard let version else { return true }
    return version <= since
}
