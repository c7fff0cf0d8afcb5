// The trip fixtures of Tests/RenderTests/Fixtures/trips, made from real data: the Fleet
// Engine log two-trips-bay-area.json replayed through the API (FleetLogCalls, on the log's
// own clock) and its second trip's JOURNEY_SHARING_V1S view saved at chosen moments, plus
// two fixtures derived from those and two along the real OSRM route (the render benchmarks'
// scenes). Tests/RenderTests/Fixtures/README.md says what each one is.

import Foundation
import Geo
import JSON
import Navigation
import Scenarios
import TripModel

/// Makes the preview tests' trip fixtures.
enum PreviewTripFixtures {
    /// The trip of the log whose views are kept.
    static let tripId = "1906d1b8-cc4e-43a1-a649-43adb926d3e3"
    /// The moments its views are taken at.
    static let times = ["2025-02-05T17:52:30Z", "2025-02-05T17:56:30Z", "2025-02-05T18:01:00Z"].compactMap(Timestamp.init(rfc3339:))
    /// The render time of the preview goldens; the OSRM scenes' ETAs count from it.
    static let fixtureTime = times[0]

    /// Every fixture by name, from the shared data folder (`../shared/fixtures`).
    static func all(shared: URL) async throws -> [(name: String, trip: Trip)] {
        let log = try FleetLog.parse(try Data(contentsOf: shared.appendingPathComponent("fleet-engine-logs/two-trips-bay-area.json")))
        let views = try await views(of: log, at: times)
        let enroute = try withRealRemainingRoute(views[0], from: views[1])
        let osrm = shared.appendingPathComponent("osrm/portugal_to_korea.json")
        return [
            ("enroute-to-pickup", enroute),
            ("enroute-to-dropoff", views[2]),
            ("intermediate-stops", try withIntermediateStops(enroute)),
            ("osrm-2k", try osrmTrip(vertices: 2_000, from: osrm)),
            ("osrm-20k", try osrmTrip(vertices: 20_000, from: osrm)),
        ]
    }

    /// The trip's rider view after the log's calls up to each time, replayed through the API.
    static func views(of log: FleetLog, at times: [Timestamp]) async throws -> [Trip] {
        var (scenario, _) = try FleetLogImporter.scenario(from: log, name: "preview-trips", source: nil)
        scenario.checkpoints = times.enumerated().map { index, time in
            var checkpoint = Scenario.Checkpoint(name: "view-\(index)", at: time)
            checkpoint.trip = tripId
            return checkpoint
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-preview-trips-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await ScenarioRunner(scenario: scenario, directory: directory).run()
        if let failure = run.failures.first { throw ScenarioError("replaying the log failed: \(failure)") }
        return try times.indices.map { index in
            guard let artefact = run.artefacts.first(where: { $0.fileName == "view-\(index).trip.json" }),
                case .json(let view) = artefact.content
            else { throw ScenarioError("no view of trip \(tripId) at \(times[index].rfc3339)") }
            return try JSONCoding.decode(Trip.self, from: try JSONCoding.encode(view), root: "trip")
        }
    }

    /// `view`'s dropoff waypoint with the path (and traffic) the vehicle was routed along
    /// from the pickup, taken from `later`, a view just after the pickup; the pickup point
    /// leads the path so that the active and remaining routes meet.
    static func withRealRemainingRoute(_ view: Trip, from later: Trip) throws -> Trip {
        var trip = view
        guard let index = trip.remainingWaypoints.firstIndex(where: { $0.waypointType == .dropOff }),
            let source = later.remainingWaypoints.first(where: { $0.waypointType == .dropOff }),
            let encoded = source.encodedPathToWaypoint, let pickup = trip.pickupPoint?.point
        else { throw StatusError(.failedPrecondition, "no dropoff path to take") }
        var path = try EncodedPolyline.decode(encoded)
        path.insert(pickup, at: 0)
        var traffic = source.trafficToWaypoint
        if var intervals = traffic?.speedReadingInterval {
            // Shift past the inserted vertex; the first interval also covers the new first segment.
            for i in intervals.indices {
                intervals[i].startPolylinePointIndex += intervals[i].startPolylinePointIndex == 0 ? 0 : 1
                intervals[i].endPolylinePointIndex += 1
            }
            traffic?.speedReadingInterval = intervals
            traffic?.encodedPathToWaypoint = nil
        }
        trip.remainingWaypoints[index].encodedPathToWaypoint = EncodedPolyline.encode(path)
        trip.remainingWaypoints[index].trafficToWaypoint = traffic
        return trip
    }

    /// The trip with its remaining route to the dropoff cut into three legs, the first two
    /// ending at intermediate destinations (a derived fixture for the numbered stops).
    static func withIntermediateStops(_ view: Trip) throws -> Trip {
        var trip = view
        guard let index = trip.remainingWaypoints.firstIndex(where: { $0.waypointType == .dropOff }),
            let encoded = trip.remainingWaypoints[index].encodedPathToWaypoint
        else { throw StatusError(.failedPrecondition, "no dropoff path to split") }
        let dropoff = trip.remainingWaypoints[index]
        let path = try EncodedPolyline.decode(encoded)
        let cuts = [0, path.count * 2 / 5, path.count * 3 / 4, path.count - 1]
        var legs: [TripWaypoint] = []
        for leg in 0..<3 {
            let range = cuts[leg]...cuts[leg + 1]
            var waypoint = TripWaypoint(
                location: TerminalLocation(point: path[range.upperBound]), tripId: trip.tripId,
                waypointType: leg == 2 ? .dropOff : .intermediateDestination,
                encodedPathToWaypoint: EncodedPolyline.encode(Array(path[range])))
            let intervals = dropoff.trafficToWaypoint?.speedReadingInterval.compactMap { interval -> SpeedReadingInterval? in
                let start = max(interval.startPolylinePointIndex, range.lowerBound)
                let end = min(interval.endPolylinePointIndex, range.upperBound)
                guard start < end else { return nil }
                return SpeedReadingInterval(
                    startPolylinePointIndex: start - range.lowerBound,
                    endPolylinePointIndex: end - range.lowerBound, speed: interval.speed)
            }
            if let intervals { waypoint.trafficToWaypoint = ConsumableTrafficPolyline(speedReadingInterval: intervals) }
            waypoint.eta = dropoff.eta
            legs.append(waypoint)
        }
        trip.remainingWaypoints.replaceSubrange(index...index, with: legs)
        trip.intermediateDestinations = legs.dropLast().compactMap(\.location)
        return trip
    }

    /// A trip along the first `count` vertices of the real OSRM route (the benchmark scene):
    /// the vehicle at its start on the way to the pickup a quarter along, one intermediate
    /// stop halfway, the dropoff at the end, traffic runs of 40 vertices cycling through the
    /// speeds, the pickup 7 minutes away at the fixture time.
    static func osrmTrip(vertices count: Int, from osrm: URL) throws -> Trip {
        let route = try OSRMImporter.route(from: try Data(contentsOf: osrm))
        let points = Array(try EncodedPolyline.decode(route.encodedPolyline).prefix(count))
        var trip = Trip(name: "providers/bench/trips/osrm-\(count)")
        trip.tripStatus = .enrouteToPickup
        trip.tripType = .exclusive
        trip.vehicleId = "bench-vehicle"
        let cuts = [0, points.count / 4, points.count / 2, points.count - 1]
        let types: [WaypointType] = [.pickup, .intermediateDestination, .dropOff]
        let speeds: [TrafficSpeed] = [.normal, .slow, .normal, .trafficJam, .normal, .unspecified]
        for leg in 0..<3 {
            let path = Array(points[cuts[leg]...cuts[leg + 1]])
            var intervals: [SpeedReadingInterval] = []
            var start = 0
            while start < path.count - 1 {
                let end = min(start + 40, path.count - 1)
                intervals.append(
                    SpeedReadingInterval(
                        startPolylinePointIndex: start, endPolylinePointIndex: end,
                        speed: speeds[(cuts[leg] + start) / 40 % speeds.count]))
                start = end
            }
            trip.remainingWaypoints.append(
                TripWaypoint(
                    location: TerminalLocation(point: path[path.count - 1]), tripId: trip.tripId, waypointType: types[leg],
                    encodedPathToWaypoint: EncodedPolyline.encode(path),
                    trafficToWaypoint: ConsumableTrafficPolyline(speedReadingInterval: intervals),
                    eta: fixtureTime.adding(seconds: Double(420 * (leg + 1)))))
        }
        trip.pickupPoint = TerminalLocation(point: points[cuts[1]])
        trip.intermediateDestinations = [TerminalLocation(point: points[cuts[2]])]
        trip.dropoffPoint = TerminalLocation(point: points[cuts[3]])
        trip.lastLocation = VehicleLocation(location: points[0], heading: 80)
        trip.view = .journeySharingV1S
        return trip
    }
}
