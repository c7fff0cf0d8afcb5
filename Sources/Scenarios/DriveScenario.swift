// A route with steps (from `tripshare import osrm|valhalla`) driven by Navigation's
// DriveSimulator: a car that takes one rider from the route's start (or, with a pickup wait,
// from the route's first destination) to its final destination, sending the route
// (`PUT .../route`) and then a location every few seconds of simulated time, with checkpoints
// spread over the drive recording the rider's view, the preview, the vehicle's navInfo and
// the navigator's events. `tripshare fixtures drive` writes these scenarios; `tripshare demo`
// replays one live. Every body is encoded from the model types (Vehicle, Trip), so an API
// change breaks the build, not the drive.

import Foundation
import Geo
import JSON
import Navigation
import TripModel

/// Makes drive scenarios from routes.
package enum DriveScenario {
    /// How the drive is made.
    package struct Options: Sendable {
        /// When the drive starts.
        package var start: Timestamp
        /// Seconds of simulated time between location updates.
        package var interval: Double
        /// Stop after this many seconds of driving (nil: drive to the end).
        package var maximumSeconds: Double?
        /// Checkpoints spread evenly over the drive (none: a drive to watch, not to record).
        package var checkpoints: Int
        /// The vehicle's ID.
        package var vehicleId = "car-1"
        /// The trip's ID.
        package var tripId = "trip-1"
        /// Seconds the car waits at the pickup, which is then the route's first destination:
        /// the trip is ENROUTE_TO_PICKUP until the car gets there, ARRIVED_AT_PICKUP while it
        /// waits (reporting where it stands every 5 s) and ENROUTE_TO_DROPOFF after. Nil: the
        /// rider boards at the route's start, and the three statuses are sent at once.
        package var pickupWaitSeconds: Double?
        /// Vehicle attributes by key (the share page shows `vehicleLabel` and `driverLabel`).
        package var labels: [String: String] = [:]
        /// Every location's `latlngAccuracy`, metres (nil: not sent).
        package var locationAccuracyMeters: Double?
        /// The driver app ends guidance (`DELETE .../vehicles/{id}/route`) when the trip completes.
        package var endsGuidance = false

        /// Options; by default a location every 5 s, all the way, 6 checkpoints.
        package init(start: Timestamp, interval: Double = 5, maximumSeconds: Double? = nil, checkpoints: Int = 6) {
            self.start = start
            self.interval = interval
            self.maximumSeconds = maximumSeconds
            self.checkpoints = checkpoints
        }
    }

    /// The navigator's events a checkpoint records (location and remaining time/distance
    /// events come every update and are covered by navInfo).
    static let navigationEvents = [
        "didArriveAtWaypoint", "navigatorDidChangeRoute", "didUpdateDelayCategory",
        "didChangeSuggestedLightingMode", "didUpdateSpeedAlertSeverity", "didUpdateTripStatus",
    ]

    /// A scenario driving `route`; `source` says where the route came from. With a
    /// `maximumSeconds`, the route is cut after the first step that reaches past it (a
    /// 13,000 km route would not fit a request body), and the notes say so.
    package static func scenario(route fullRoute: NavRoute, name: String, source: String?, options: Options) throws -> Scenario {
        var route = fullRoute
        var cutNote: String?
        if let maximum = options.maximumSeconds, let cut = prefix(of: fullRoute, seconds: maximum * 1.25) {
            route = cut
            cutNote =
                "the route is cut after step \(cut.steps.count - 1) of \(fullRoute.steps.count - 1) (\(Int(cut.steps.reduce(0) { $0 + $1.distanceFromPrevStepMeters } / 1000)) km); the car drives \(Int(maximum)) s of it"
        }
        let points: [LatLng]
        do { points = try route.validate() } catch { throw ScenarioError("route: \(error)") }
        guard let first = points.first, let last = points.last else { throw ScenarioError("route: no points") }
        // With a pickup wait, the first destination is the pickup and the last the dropoff.
        var pickupStop: RouteDestination?
        if options.pickupWaitSeconds != nil {
            guard route.destinations.count >= 2, let stop = route.destinations.first else {
                throw ScenarioError("route: a pickup wait needs two legs, to the pickup and then to the dropoff")
            }
            pickupStop = stop
        }
        let pickup = pickupStop?.location ?? first
        let dropoff = pickupStop == nil ? last : route.destinations.last?.location ?? last
        var drive: DriveSimulator
        do { drive = try DriveSimulator(route: route, start: options.start.date, interval: options.interval) } catch {
            throw ScenarioError("route: \(error)")
        }
        let vehicle = options.vehicleId
        let trip = options.tripId
        var scenario = Scenario(
            name: name,
            description:
                "One rider driven along a real route by the drive simulator: the route with its steps is sent, then a location every \(Int(options.interval)) s."
                + (options.pickupWaitSeconds.map { " The car waits \(Int($0)) s at the pickup, the route's first destination." } ?? ""),
            provider: "demo")
        scenario.source = source
        scenario.routes["route"] = try FleetLogImporter.json(route)
        var standing = VehicleLocation(location: first)
        standing.latlngAccuracy = options.locationAccuracyMeters
        scenario.vehicles[vehicle] = try Scenario.vehicleBody(at: standing, labels: options.labels)
        scenario.trips[trip] = try Scenario.tripBody(vehicle: vehicle, pickup: pickup, dropoff: dropoff)
        let t0 = options.start
        let setRoute = Scenario.Call(at: t0, op: .setRoute, id: vehicle, route: "route")
        scenario.timeline = [Scenario.Call(at: t0, op: .createVehicle, id: vehicle), Scenario.Call(at: t0, op: .createTrip, id: trip)]
        if pickupStop == nil {
            scenario.timeline += [
                setRoute, try .status(t0, trip, .enrouteToPickup), try .status(t0, trip, .arrivedAtPickup),
                try .status(t0, trip, .enrouteToDropoff),
            ]
        } else {
            scenario.timeline += [try .status(t0, trip, .enrouteToPickup), setRoute]
        }
        // Seconds of driving from the start to the pickup, as the simulator times the route.
        let durations = route.segmentDurationsSeconds ?? route.freeFlowSegmentDurationsSeconds ?? []
        let pickupSeconds = pickupStop.map { durations.prefix($0.polylinePointIndex).reduce(0, +) }
        let wait = options.pickupWaitSeconds ?? 0
        var waited: Double?
        var lastHeading: Int?
        let limit = options.maximumSeconds.map { min($0, drive.durationSeconds) } ?? drive.durationSeconds
        var reachedEnd = false
        var lastTime = t0
        while let point = drive.next() {
            let driven = Timestamp(point.time)
            // The last report is stamped at the drive's end, which whole microseconds may
            // round a hair past.
            if driven.seconds(since: t0) > limit + 0.001 { break }
            if let pickupSeconds, waited == nil, driven.seconds(since: t0) >= pickupSeconds {
                // At the pickup: the car stands still while the rider gets in.
                waited = wait
                let arrival = t0.adding(seconds: pickupSeconds)
                scenario.timeline.append(try .report(arrival, vehicle, location(pickup, heading: lastHeading, speed: 0, at: arrival, options)))
                scenario.timeline.append(try .status(arrival, trip, .arrivedAtPickup))
                for second in stride(from: 5.0, to: wait, by: 5) {
                    let time = arrival.adding(seconds: second)
                    scenario.timeline.append(try .report(time, vehicle, location(pickup, heading: lastHeading, speed: 0, at: time, options)))
                }
                scenario.timeline.append(try .status(arrival.adding(seconds: wait), trip, .enrouteToDropoff))
            }
            let time = waited.map { driven.adding(seconds: $0) } ?? driven
            let heading = point.heading.map { Int($0.rounded()) % 360 }
            lastHeading = heading ?? lastHeading
            let speed = point.speedMetersPerSecond.map { ($0 * 10).rounded() / 10 }
            scenario.timeline.append(try .report(time, vehicle, location(point.location, heading: heading, speed: speed, at: time, options)))
            lastTime = time
            reachedEnd = point.location == last
        }
        if reachedEnd {
            scenario.timeline.append(try .status(lastTime.adding(seconds: 1), trip, .complete))
            if options.endsGuidance { scenario.timeline.append(Scenario.Call(at: lastTime.adding(seconds: 1), op: .deleteRoute, id: vehicle)) }
        }
        let span = lastTime.seconds(since: t0)
        for index in stride(from: 1, through: options.checkpoints, by: 1) {
            let time = t0.adding(
                seconds: span * Double(index) / Double(options.checkpoints) + (index == options.checkpoints && reachedEnd ? 2 : 0))
            var checkpoint = Scenario.Checkpoint(name: String(format: "%02d-drive", index), at: time)
            checkpoint.trip = trip
            checkpoint.navInfo = vehicle
            checkpoint.events = Scenario.EventSelection(vehicle: vehicle, types: navigationEvents)
            checkpoint.render = Scenario.RenderRequest(trip: trip)
            scenario.checkpoints.append(checkpoint)
        }
        if let cutNote { scenario.notes.append(cutNote) }
        if let maximum = options.maximumSeconds, maximum < drive.durationSeconds {
            scenario.notes.append(String(format: "the drive stops after %.0f s of the route's %.0f s", maximum, drive.durationSeconds))
        }
        return scenario
    }

    /// The route up to the end of the first step whose cumulative time passes `seconds`,
    /// ending at a destination there; nil when the whole route is shorter.
    static func prefix(of route: NavRoute, seconds: Double) -> NavRoute? {
        var elapsed = 0.0
        guard
            let last = route.steps.indices.first(where: { index in
                elapsed += route.steps[index].timeFromPrevStepSeconds
                return elapsed > seconds
            }), last + 1 < route.steps.count, let points = try? route.validate()
        else { return nil }
        let end = route.steps[last].polylineEndIndex
        guard end >= 1 else { return nil }
        let kept = Array(points[0...end])
        var cut = route
        cut.encodedPolyline = EncodedPolyline.encode(kept)
        cut.steps = Array(route.steps[0...last])
        cut.segmentDurationsSeconds = route.segmentDurationsSeconds.map { Array($0.prefix(end)) }
        cut.freeFlowSegmentDurationsSeconds = route.freeFlowSegmentDurationsSeconds.map { Array($0.prefix(end)) }
        cut.speedLimits = route.speedLimits.map { spans in
            spans.filter { $0.startPolylinePointIndex < end }.map { span in
                var span = span
                span.endPolylinePointIndex = min(span.endPolylinePointIndex, end)
                return span
            }
        }
        cut.destinations =
            route.destinations.filter { $0.polylinePointIndex < end }
            + [RouteDestination(location: kept[end], polylinePointIndex: end)]
        return cut
    }

    /// A location as the simulator reports it, with the accuracy the options ask for.
    private static func location(_ point: LatLng, heading: Int?, speed: Double?, at time: Timestamp, _ options: Options) -> VehicleLocation {
        var location = VehicleLocation(location: point, heading: heading, speed: speed, updateTime: time)
        location.latlngAccuracy = options.locationAccuracyMeters
        return location
    }
}
