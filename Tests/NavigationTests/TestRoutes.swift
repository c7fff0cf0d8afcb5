import Foundation
import Geo
import Navigation

/// Places made up for tests (the routes are NavigationTesting's `StraightRoute`).
enum TestRoutes {
    /// A point `north` metres north of `p`.
    static func offset(_ p: LatLng, north: Double) -> LatLng {
        LatLng(latitude: p.latitude + north * 180 / (Double.pi * Earth.radiusMeters), longitude: p.longitude)
    }
}

extension Navigator {
    /// Feeds one trace point.
    mutating func update(_ p: TracePoint) -> [NavEvent] {
        update(
            location: p.location, heading: p.heading, speedMetersPerSecond: p.speedMetersPerSecond,
            accuracyMeters: p.accuracyMeters, time: p.time)
    }
}

extension NavEvent {
    var navInfo: NavInfo? {
        if case .didUpdateNavInfo(let info) = self { return info }
        return nil
    }
}
