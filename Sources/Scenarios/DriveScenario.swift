// A route with steps (from `tripshare import osrm|valhalla`) driven by Navigation's
// DriveSimulator: a car that takes one rider from the route's start to its final
// destination, sending the route (`PUT .../route`) and then a location every few seconds of
// simulated time, with checkpoints spread over the drive recording the rider's view, the
// preview, the vehicle's navInfo and the navigator's events.

import Foundation
import Geo
import JSON
import Navigation
import TripModel

/// Makes drive scenarios from routes.
public enum DriveScenario {
    /// How the drive is made.
    public struct Options: Sendable {
        /// When the drive starts.
        public var start: Timestamp
        /// Seconds of simulated time between location updates.
        public var interval: Double
        /// Stop after this many seconds of driving (nil: drive to the end).
        public var maximumSeconds: Double?
        /// Checkpoints spread evenly over the drive.
        public var checkpoints: Int

        /// Options; by default a location every 5 s, all the way, 6 checkpoints.
        public init(start: Timestamp, interval: Double = 5, maximumSeconds: Double? = nil, checkpoints: Int = 6) {
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
    public static func scenario(route fullRoute: NavRoute, name: String, source: String?, options: Options) throws -> Scenario {
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
        var drive: DriveSimulator
        do { drive = try DriveSimulator(route: route, start: options.start.date, interval: options.interval) } catch {
            throw ScenarioError("route: \(error)")
        }
        var scenario = Scenario(
            name: name,
            description:
                "One rider driven along a real route by the drive simulator: the route with its steps is sent, then a location every \(Int(options.interval)) s.",
            provider: "demo")
        scenario.source = source
        let vehicle = "car-1"
        let trip = "trip-1"
        scenario.routes["route"] = try FleetLogImporter.json(route)
        scenario.vehicles[vehicle] = json(
            #"{"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}, "lastLocation": {"location": {"latitude": \#(first.latitude), "longitude": \#(first.longitude)}}}"#
        )
        scenario.trips[trip] = json(
            #"{"tripType": "EXCLUSIVE", "vehicleId": "\#(vehicle)", "pickupPoint": {"point": {"latitude": \#(first.latitude), "longitude": \#(first.longitude)}}, "dropoffPoint": {"point": {"latitude": \#(last.latitude), "longitude": \#(last.longitude)}}}"#
        )
        let t0 = options.start
        scenario.timeline = [
            Scenario.Call(at: t0, op: .createVehicle, id: vehicle),
            Scenario.Call(at: t0, op: .createTrip, id: trip),
            Scenario.Call(at: t0, op: .setRoute, id: vehicle, route: "route"),
            status(t0, trip, "ENROUTE_TO_PICKUP"), status(t0, trip, "ARRIVED_AT_PICKUP"), status(t0, trip, "ENROUTE_TO_DROPOFF"),
        ]
        let limit = options.maximumSeconds.map { min($0, drive.durationSeconds) } ?? drive.durationSeconds
        var reachedEnd = false
        var lastTime = t0
        while let point = drive.next() {
            let time = Timestamp(point.time)
            // The last report is stamped at the drive's end, which whole microseconds may
            // round a hair past.
            if time.seconds(since: t0) > limit + 0.001 { break }
            var location =
                #"{"location": {"latitude": \#(point.location.latitude), "longitude": \#(point.location.longitude)}, "updateTime": "\#(time.rfc3339)""#
            if let heading = point.heading { location += #", "heading": \#(Int(heading.rounded()) % 360)"# }
            if let speed = point.speedMetersPerSecond { location += #", "speed": \#((speed * 10).rounded() / 10)"# }
            scenario.timeline.append(
                Scenario.Call(
                    at: time, op: .updateVehicle, id: vehicle, updateMask: "lastLocation",
                    body: json(#"{"lastLocation": \#(location)}}"#)))
            lastTime = time
            reachedEnd = point.location == last
        }
        if reachedEnd { scenario.timeline.append(status(lastTime.adding(seconds: 1), trip, "COMPLETE")) }
        let span = lastTime.seconds(since: t0)
        for index in 1...max(1, options.checkpoints) {
            let time = t0.adding(
                seconds: span * Double(index) / Double(max(1, options.checkpoints)) + (index == options.checkpoints && reachedEnd ? 2 : 0))
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

    private static func status(_ time: Timestamp, _ trip: String, _ status: String) -> Scenario.Call {
        Scenario.Call(at: time, op: .updateTrip, id: trip, updateMask: "tripStatus", body: json(#"{"tripStatus": "\#(status)"}"#))
    }

    /// Parses JSON this file wrote itself.
    private static func json(_ text: String) -> JSONValue {
        (try? JSONParser.parse(Array(text.utf8))) ?? .null
    }
}
