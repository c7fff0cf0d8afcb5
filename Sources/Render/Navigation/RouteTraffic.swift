// Traffic along a route for the navigation screen: one speed class per polyline segment.
// Either given (speed-reading intervals by route vertex, as Fleet Engine hands traffic to
// riders) or estimated from the route's own durations: a segment whose traffic-aware time is
// over 1.1 / 1.4 times its free-flow time is slow / jammed, the navigator's delay classes.

import Navigation
import Styling
import TripModel

/// The traffic speed of every segment of a route polyline.
public struct RouteTraffic: Hashable, Sendable {
    /// One speed per segment (point `i` to `i + 1`).
    package var speeds: [SpeedType]

    /// Traffic from speed-reading intervals over the route's vertices; segments no interval
    /// covers have no data, and intervals reaching past the route are cut.
    package init(segmentCount: Int, intervals: [SpeedReadingInterval]) {
        var speeds = [SpeedType](repeating: .noData, count: max(0, segmentCount))
        for interval in intervals {
            let start = max(0, interval.startPolylinePointIndex)
            let end = min(speeds.count, interval.endPolylinePointIndex)
            guard start < end else { continue }
            for segment in start..<end { speeds[segment] = SpeedType(interval.speed) }
        }
        self.speeds = speeds
    }

    /// Traffic estimated from a route's traffic-aware and free-flow durations; nil when the
    /// route lacks either.
    package init?(estimatedFrom route: NavRoute) {
        guard let traffic = route.segmentDurationsSeconds, let free = route.freeFlowSegmentDurationsSeconds,
            traffic.count == free.count
        else { return nil }
        speeds = zip(traffic, free).map { pair in
            guard pair.1 > 0 else { return .noData }
            switch DelayCategory(ratio: pair.0 / pair.1) {
            case .light: return .normal
            case .medium: return .slow
            case .heavy: return .trafficJam
            case .noData: return .noData
            }
        }
    }

    /// The speed of segment `i` (no data outside the table).
    func speed(_ segment: Int) -> SpeedType {
        segment >= 0 && segment < speeds.count ? speeds[segment] : .noData
    }
}
