// The demo's default drive: a route with steps over real roads (OSRM's format, read with the
// project's own importer) whose first leg ends at the rider's pickup and whose last ends at
// the dropoff. The car is placed at the route's start, the trip is created with those two
// points, the route goes to the car's navigator, and Navigation's DriveSimulator moves the
// car along it at the route's speeds, one report per second of driving; at the pickup the
// car waits while the rider gets in. The trip's statuses follow as a provider's backend would
// send them.

import Foundation
import Geo
import Navigation
import TripModel

extension DemoDrive {
    /// Seconds the car waits at the pickup.
    static let pickupWaitSeconds = 20.0
    /// Seconds of driving between two location reports.
    static let reportSpacingSeconds = 1.0

    /// The calls of a drive along `route`, whose first destination is the pickup and whose
    /// last is the dropoff; `area` names where it is, for the printed summary.
    init(route: NavRoute, area: String) throws {
        let points: [LatLng]
        do { points = try route.validate() } catch { throw DemoError("the demo route: \(error)") }
        guard let start = points.first, route.destinations.count >= 2, let pickupStop = route.destinations.first,
            let dropoffStop = route.destinations.last
        else { throw DemoError("the demo route needs two legs: to the pickup, then to the dropoff") }
        let pickup = pickupStop.location
        let dropoff = dropoffStop.location
        // Seconds of driving from the start to the pickup, as the simulator times the route.
        let durations = route.segmentDurationsSeconds ?? route.freeFlowSegmentDurationsSeconds ?? []
        let pickupSeconds = durations.prefix(pickupStop.polylinePointIndex).reduce(0, +)

        let p = "/v1/providers/\(Self.provider)"
        let vehicle = Self.location(start, heading: nil, speed: nil)
        let attributes = Self.labels.sorted { $0.key < $1.key }
            .map { #"{"key": "\#($0.key)", "stringValue": "\#($0.value)"}"# }.joined(separator: ", ")
        var steps = [
            Step(
                offset: 0, method: "POST", path: "\(p)/vehicles?vehicleId=\(Self.vehicleId)",
                body: Array(
                    #"""
                    {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                     "vehicleType": {"category": "AUTO"}, "lastLocation": \#(vehicle), "attributes": [\#(attributes)]}
                    """#.utf8), label: "create \(Self.vehicleId)"),
            Step(
                offset: 0, method: "POST", path: "\(p)/trips?tripId=\(Self.tripId)",
                body: Array(
                    #"""
                    {"tripType": "EXCLUSIVE", "vehicleId": "\#(Self.vehicleId)",
                     "pickupPoint": {"point": {"latitude": \#(pickup.latitude), "longitude": \#(pickup.longitude)}},
                     "dropoffPoint": {"point": {"latitude": \#(dropoff.latitude), "longitude": \#(dropoff.longitude)}}}
                    """#.utf8), label: "create \(Self.tripId)"),
            Self.status(0, .enrouteToPickup),
            Step(offset: 0, method: "PUT", path: "\(p)/vehicles/\(Self.vehicleId)/route", body: try Self.encode(route), label: "route"),
        ]
        var drive: DriveSimulator
        do {
            drive = try DriveSimulator(route: route, start: Date(timeIntervalSince1970: 0), interval: Self.reportSpacingSeconds)
        } catch { throw DemoError("the demo route: \(error)") }
        var waited = false
        var lastHeading: Double?
        while let point = drive.next() {
            let seconds = point.time.timeIntervalSince1970
            if !waited && seconds >= pickupSeconds {
                waited = true
                steps.append(Self.report(pickupSeconds, Self.location(pickup, heading: lastHeading, speed: 0)))
                steps.append(Self.status(pickupSeconds, .arrivedAtPickup))
                var wait = 5.0
                while wait < Self.pickupWaitSeconds {
                    steps.append(Self.report(pickupSeconds + wait, Self.location(pickup, heading: lastHeading, speed: 0)))
                    wait += 5
                }
                steps.append(Self.status(pickupSeconds + Self.pickupWaitSeconds, .enrouteToDropoff))
            }
            let offset = seconds + (waited ? Self.pickupWaitSeconds : 0)
            lastHeading = point.heading ?? lastHeading
            steps.append(Self.report(offset, Self.location(point.location, heading: point.heading, speed: point.speedMetersPerSecond)))
        }
        let end = drive.durationSeconds + Self.pickupWaitSeconds
        steps.append(Self.status(end + 1, .complete))
        steps.append(Step(offset: end + 1, method: "DELETE", path: "\(p)/vehicles/\(Self.vehicleId)/route", body: [], label: "route"))
        self.init(steps: steps, durationSeconds: end + 1, area: area)
    }

    /// A trip status change.
    private static func status(_ offset: Double, _ status: TripStatus) -> Step {
        Step(
            offset: offset, method: "PUT", path: "/v1/providers/\(provider)/trips/\(tripId)?updateMask=tripStatus",
            body: Array(#"{"tripStatus": "\#(status.rawValue)"}"#.utf8), label: status.rawValue)
    }

    /// A location report (stamped with the time it is sent).
    private static func report(_ offset: Double, _ location: String) -> Step {
        Step(
            offset: offset, method: "PUT", path: "/v1/providers/\(provider)/vehicles/\(vehicleId)?updateMask=lastLocation",
            body: Array(#"{"lastLocation": \#(location)}"#.utf8), label: "location")
    }

    /// A vehicle location's JSON.
    private static func location(_ point: LatLng, heading: Double?, speed: Double?) -> String {
        var json = #"{"location": {"latitude": \#(point.latitude), "longitude": \#(point.longitude)}"#
        if let heading { json += #", "heading": \#(Int(heading.rounded()) % 360)"# }
        if let speed { json += #", "speed": \#((speed * 10).rounded() / 10)"# }
        return json + ", \"latlngAccuracy\": 5}"
    }
}
