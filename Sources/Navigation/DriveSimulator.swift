// A simulated vehicle that drives a route at the speeds its durations imply (traffic-aware
// first, then free-flow, else a fixed speed) and reports where it is, ending exactly at the
// route's end.
//
// A speed factor compresses time, it does not speed the vehicle up: with factor F each
// report comes `interval · F` seconds of driving after the previous one, stamped with the
// drive's own clock, so a replay that sends one report per `interval` of wall-clock time is
// F times faster to watch while every report stays physically possible (a navigator's jump
// filter accepts them, and speeds are the route's).

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
    /// reports as a replay shows them, `speedFactor` how many seconds of driving pass in each
    /// of those seconds (10: a report every 10 s of driving for each second of `interval`);
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
        self.speedFactor = speedFactor.isFinite && speedFactor > 0 ? speedFactor : 1
    }

    /// Time the vehicle takes to drive the route, seconds (the span of the reports' times).
    package var durationSeconds: Double { measure.seconds[measure.seconds.count - 1] }

    /// Time a replay at one report per `interval` takes, seconds.
    package var replaySeconds: Double { durationSeconds / speedFactor }

    /// Seconds of driving between two reports.
    package var reportSpacingSeconds: Double { interval * speedFactor }

    /// The next report, or nil after the one at the route's end.
    public mutating func next() -> TracePoint? {
        guard !finished else { return nil }
        let routeSeconds = Double(tick) * reportSpacingSeconds
        tick += 1
        let total = measure.seconds[measure.seconds.count - 1]
        if routeSeconds >= total {
            finished = true
            let last = measure.pointCount - 1
            return TracePoint(
                time: start.addingTimeInterval(total), location: measure.point(last),
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
            time: start.addingTimeInterval(routeSeconds), location: measure.location(at: position),
            heading: measure.bearing(segment: segment), speedMetersPerSecond: span > 0 ? length / span : 0,
            accuracyMeters: 5)
    }
}
