// A waypoint a route visits: where it is, and where the route reaches it.

import Geo

/// A waypoint on a route (a leg's end); a route's last destination is its final one.
public struct RouteDestination: Hashable, Codable, Sendable {
    /// The waypoint's location (it may lie beside the road).
    public var location: LatLng
    /// Index of the route polyline point where the route reaches the waypoint.
    public var polylinePointIndex: Int

    /// Creates a destination.
    public init(location: LatLng, polylinePointIndex: Int) {
        self.location = location
        self.polylinePointIndex = polylinePointIndex
    }
}
