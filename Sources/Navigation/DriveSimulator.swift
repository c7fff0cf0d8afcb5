// A simulated vehicle that drives a route at the speeds its durations imply (traffic-aware
// first, then free-flow, else a fixed speed), faster or slower by a factor, and reports
// where it is every `interval` seconds of simulated time, ending exactly at the route's end.

import Foundation
import Geo

/// Drives a route and yields timed locations along it.
public struct DriveSimulator: Sequence, IteratorProtocol, Sendable {
    private let measure: RouteMeasure
    private let start: Date
    private let interval: TimeInterval
    private let speedFactor: Double
    private var tick = 0
    private var segment = 0
    private var finished = false

    /// Creates a drive along `route` starting at `start`. `interval` is the time between
    /// reports and `speedFactor` multiplies every speed (2 drives twice as fast);
    /// `defaultSpeedMetersPerSecond` times a route without durations.
    public init(
        route: NavRoute, start: Date, interval: TimeInterval = 1, speedFactor: Double = 1,
        defaultSpeedMetersPerSecond: Double = 50 / 3.6
    ) throws(NavRouteError) {
        var timed = route
        if timed.segmentDurationsSeconds == nil { timed.segmentDurationsSeconds = timed.freeFlowSegmentDurationsSeconds }
        measure = try RouteMeasure(route: timed, defaultSpeed: defaultSpeedMetersPerSecond)
        self.start = start
        self.interval = interval > 0 ? interval : 1
        self.speedFactor = speedFactor > 0 ? speedFactor : 1
    }

    /// Total time of the drive, seconds.
    public var durationSeconds: Double { measure.seconds[measure.seconds.count - 1] / speedFactor }

    /// The next report, or nil after the one at the route's end.
    public mutating func next() -> TracePoint? {
        guard !finished else { return nil }
        let elapsed = Double(tick) * interval
        tick += 1
        let routeSeconds = elapsed * speedFactor
        let total = measure.seconds[measure.seconds.count - 1]
        if routeSeconds >= total {
            finished = true
            let last = measure.pointCount - 1
            return TracePoint(
                time: start.addingTimeInterval(total / speedFactor), location: measure.point(last),
                heading: measure.bearing(segment: last - 1), speedMetersPerSecond: 0, accuracyMeters: 5)
        }
        let seconds = measure.seconds
        while segment + 1 < measure.segmentCount && seconds[segment + 1] <= routeSeconds { segment += 1 }
        let span = seconds[segment + 1] - seconds[segment]
        let fraction = span > 0 ? Swift.min(1, Swift.max(0, (routeSeconds - seconds[segment]) / span)) : 1
        let length = measure.meters[segment + 1] - measure.meters[segment]
        let position = RouteMeasure.Position(
            segment: segment, fraction: fraction, meters: measure.meters[segment] + fraction * length)
        return TracePoint(
            time: start.addingTimeInterval(elapsed), location: measure.location(at: position),
            heading: measure.bearing(segment: segment), speedMetersPerSecond: span > 0 ? length / span * speedFactor : 0,
            accuracyMeters: 5)
    }
}
