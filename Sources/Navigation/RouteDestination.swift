// A waypoint a route visits: where it is, and where the route reaches it.

import Geo

/// A waypoint on a route (a leg's end); a route's last destination is its final one.
public struct RouteDestination: Hashable, Codable, Sendable {
    /// The waypoint's location (it may lie beside the road).
    public var location: LatLng
    /// Index of the route polyline point where the route reaches the waypoint.
    public var polylinePointIndex: Int
    /// What the driver's screen calls the place on arrival ("Kaivokatu 1"), if known: OSRM's
    /// waypoint `name`, the street the router snapped it to.
    public var name: String?

    /// Creates a destination.
    public init(location: LatLng, polylinePointIndex: Int, name: String? = nil) {
        self.location = location
        self.polylinePointIndex = polylinePointIndex
        self.name = name
    }
}
