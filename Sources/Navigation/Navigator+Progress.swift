// A navigator split for storage: its route, written once when it is set, and its progress
// (settings and moving state, a few hundred bytes), written after every update. A server
// keeps the decoded route in memory and restores only the progress per update, so the cost
// of persisting a navigator does not grow with the route.

import Foundation

extension Navigator {
    /// Everything about a navigator except its route: its settings and where it is.
    public struct Progress: Hashable, Codable, Sendable {
        var settings: NavigatorSettings
        var state: State
    }

    /// The navigator's settings and moving state, without the route.
    package var progress: Progress { Progress(settings: settings, state: state) }

    /// Restores a navigator on `route` (validated; nil for none) at `progress`.
    public init(route: NavRoute?, progress: Progress) throws(NavRouteError) {
        self.init(settings: progress.settings)
        if let route {
            prepared = try Prepared(route: route, settings: progress.settings)
            self.route = route
        }
        state = progress.state
        navInfo = makeNavInfo()
    }

    /// Moves this navigator, keeping its route, to `progress` (which must have been taken on
    /// the same route).
    package mutating func restore(_ progress: Progress) {
        if progress.settings.defaultSpeedMetersPerSecond != settings.defaultSpeedMetersPerSecond, let route {
            prepared = try? Prepared(route: route, settings: progress.settings)
        }
        settings = progress.settings
        state = progress.state
        navInfo = makeNavInfo()
    }

    /// The driver moved on after an arrival (a trip status update): the arrival is no
    /// longer the news, so ``arrivedDestinationIndex`` is nil until the next one.
    package mutating func acknowledgeArrival() {
        state.arrivedDestinationIndex = nil
    }
}
