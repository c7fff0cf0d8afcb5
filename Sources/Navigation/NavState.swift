// `GMSNavigationNavState`, without the SDK's "unknown" (a navigator always knows).

/// Whether the navigator is guiding, looking for a new route, or done.
package enum NavState: String, CaseIterable, Codable, Sendable {
    /// Actively navigating; the upcoming step is known.
    case enroute
    /// The vehicle left the route; the upcoming step is unknown until a new route is set
    /// or the vehicle comes back onto this one.
    case rerouting
    /// No route, or the final destination was reached.
    case stopped
}
