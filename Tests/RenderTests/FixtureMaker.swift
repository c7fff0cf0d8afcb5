// Makes the trip fixtures of Fixtures/trips from real data: it replays the Fleet Engine log
// shared/fixtures/fleet-engine-logs/two-trips-bay-area.json through the model and the
// in-memory store on the log's own clock and saves the second trip's JOURNEY_SHARING_V1S
// view (exactly what GET trip returns) at chosen moments. Runs only on request:
//   TRIPSHARE_RENDER_MAKE_FIXTURES=1 swift test --filter FixtureMakerTests
// and then fails, so that regenerated fixtures are never accepted silently.

import Fleet
import Foundation
import Geo
import Navigation
import Synchronization
import Testing
import TripModel
import TripStore

/// A clock the replay moves to each log entry's time.
final class ScriptedClock: Sendable {
    let time = Mutex(Timestamp(microseconds: 0))
    var wallClock: WallClock { WallClock { [self] in time.withLock { $0 } } }
}

enum FixtureMaker {
    static let tripId = "1906d1b8-cc4e-43a1-a649-43adb926d3e3"
    static let logURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/fleet-engine-logs/two-trips-bay-area.json")

    /// Replays the log and returns the trip's rider view after the last entry before each time.
    static func views(at times: [Timestamp]) async throws -> [Trip] {
        let log = try FleetLog.parse(try Data(contentsOf: logURL))
        let clock = ScriptedClock()
        let store = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
        var vehicles = Set<String>()
        var views: [Trip] = []
        var pending = times.sorted()
        var provider = ""
        for entry in log.entries {
            while let next = pending.first, entry.time > next {
                views.append(try await store.trip(provider: provider, id: tripId).rendered(as: .journeySharingV1S))
                pending.removeFirst()
            }
            clock.time.withLock { $0 = entry.time }
            switch entry.call {
            case .createVehicle(let p, let id, let vehicle):
                _ = try await store.createVehicle(provider: p, id: id, input: vehicle)
                vehicles.insert(id)
            case .updateVehicle(let p, let id, let vehicle, let mask):
                if !vehicles.contains(id) { try await createVehicle(store, p, id); vehicles.insert(id) }
                _ = try await store.updateVehicle(provider: p, id: id, input: vehicle, mask: mask)
            case .createTrip(let p, let id, let trip):
                provider = p
                if let v = trip.vehicleId, !vehicles.contains(v) { try await createVehicle(store, p, v); vehicles.insert(v) }
                _ = try await store.createTrip(provider: p, id: id, input: trip)
            case .updateTrip(let p, let id, let trip, let mask):
                if let v = trip.vehicleId, mask.contains("vehicleId"), !vehicles.contains(v) {
                    try await createVehicle(store, p, v)
                    vehicles.insert(v)
                }
                _ = try await store.updateTrip(provider: p, id: id, input: trip, mask: mask)
            }
        }
        #expect(pending.isEmpty)
        return views
    }

    static func createVehicle(_ store: Fleet, _ provider: String, _ id: String) async throws {
        var input = Vehicle(name: "")
        input.vehicleState = .online
        input.supportedTripTypes = [.exclusive]
        input.maximumCapacity = 5
        input.vehicleType = VehicleType(category: .auto)
        _ = try await store.createVehicle(provider: provider, id: id, input: input)
    }

    /// `view`'s dropoff waypoint with the path (and traffic) the vehicle was routed along
    /// from the pickup, taken from `later`, a view just after the pickup; the pickup point
    /// leads the path so that the active and remaining routes meet.
    static func withRealRemainingRoute(_ view: Trip, from later: Trip) throws -> Trip {
        var trip = view
        guard let index = trip.remainingWaypoints.firstIndex(where: { $0.waypointType == .dropOff }),
              let source = later.remainingWaypoints.first(where: { $0.waypointType == .dropOff }),
              let encoded = source.encodedPathToWaypoint, let pickup = trip.pickupPoint?.point
        else { throw FleetError(.failedPrecondition, "no dropoff path to take") }
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
        else { throw FleetError(.failedPrecondition, "no dropoff path to split") }
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
                return SpeedReadingInterval(startPolylinePointIndex: start - range.lowerBound,
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
}

extension FixtureMaker {
    static let osrmURL = logURL.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("osrm/portugal_to_korea.json")

    /// A trip along the first `count` vertices of the real OSRM route (the benchmark scene):
    /// the vehicle at its start on the way to the pickup a quarter along, one intermediate
    /// stop halfway, the dropoff at the end, traffic runs of 40 vertices cycling through the
    /// speeds, the pickup 7 minutes away at the fixture time.
    static func osrmTrip(vertices count: Int) throws -> Trip {
        let route = try OSRMImporter.route(from: try Data(contentsOf: osrmURL))
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
                intervals.append(SpeedReadingInterval(startPolylinePointIndex: start, endPolylinePointIndex: end,
                                                      speed: speeds[(cuts[leg] + start) / 40 % speeds.count]))
                start = end
            }
            trip.remainingWaypoints.append(TripWaypoint(
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

@Suite(.enabled(if: ProcessInfo.processInfo.environment["TRIPSHARE_RENDER_MAKE_FIXTURES"] != nil))
struct FixtureMakerTests {
    /// Rewrites Fixtures/trips/*.json from the real log (and fails, so nothing is accepted unseen).
    @Test func writeTripFixtures() async throws {
        let times = ["2025-02-05T17:52:30Z", "2025-02-05T17:56:30Z", "2025-02-05T18:01:00Z"].compactMap(Timestamp.init(rfc3339:))
        let views = try await FixtureMaker.views(at: times)
        let enroute = try FixtureMaker.withRealRemainingRoute(views[0], from: views[1])
        let fixtures: [(String, Trip)] = [
            ("enroute-to-pickup", enroute),
            ("enroute-to-dropoff", views[2]),
            ("intermediate-stops", try FixtureMaker.withIntermediateStops(enroute)),
            ("osrm-2k", try FixtureMaker.osrmTrip(vertices: 2_000)),
            ("osrm-20k", try FixtureMaker.osrmTrip(vertices: 20_000)),
        ]
        for (name, trip) in fixtures {
            try FleetJSON.encodePretty(trip).write(to: GoldenSupport.fixtures.appendingPathComponent("trips/\(name).json"))
        }
        Issue.record("rewrote \(fixtures.count) trip fixtures in \(GoldenSupport.fixtures.path)/trips; review them, then run without TRIPSHARE_RENDER_MAKE_FIXTURES")
    }
}
