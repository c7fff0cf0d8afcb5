// Another way to the destination that the router offered beside the route being driven
// (OSRM's `routes[1...]`, Valhalla's `alternates`): only what a screen needs to draw it and
// say how much longer it takes.

/// An alternative route: its line and how long it takes.
public struct AlternateRoute: Hashable, Codable, Sendable {
    /// The alternative as a Google encoded polyline, precision 5.
    package var encodedPolyline: String
    /// Traffic-aware time to drive it, seconds.
    package var durationSeconds: Double

    /// Creates an alternative route.
    package init(encodedPolyline: String, durationSeconds: Double) {
        self.encodedPolyline = encodedPolyline
        self.durationSeconds = durationSeconds
    }
}
