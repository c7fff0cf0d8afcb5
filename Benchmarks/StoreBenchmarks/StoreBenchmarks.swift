// The store's write path without HTTP: vehicle location updates on vehicles with a
// 500-point route segment and an assigned trip, committed to SQLite one at a time and 64 at
// once (the writer's ceiling on updates/s), and the pieces they spend their time on.

import Benchmark
import Fleet
import Foundation
import Geo
import JSON
import SQLiteStore
import TripModel

/// A 500-point road heading north with a slight wiggle, as scripts/load/load_seed.py makes.
private func route(_ i: Int) -> [LatLng] {
    let lat0 = 37.3 + Double(i % 100) * 0.002
    let lng0 = -122.1 + Double(i / 100) * 0.002
    return (0..<500).map { k in LatLng(latitude: lat0 + Double(k) * 0.00002, longitude: lng0 + 0.00001 * sin(Double(k) / 7)) }
}

private func seededStore(vehicles: Int) async throws -> (Fleet, [[LatLng]]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = Fleet(store: try SQLiteTripStore(path: directory.appendingPathComponent("bench.sqlite").path))
    var routes: [[LatLng]] = []
    for i in 0..<vehicles {
        let road = route(i)
        routes.append(road)
        var vehicle = Vehicle(name: "")
        vehicle.vehicleState = .online
        vehicle.supportedTripTypes = [.exclusive]
        vehicle.maximumCapacity = 4
        vehicle.vehicleType = VehicleType(category: .auto)
        vehicle.currentRouteSegment = EncodedPolyline.encode(road)
        vehicle.lastLocation = VehicleLocation(location: road[0])
        _ = try await store.createVehicle(provider: "bench", id: "v\(i)", input: vehicle)
        var trip = Trip(name: "")
        trip.tripType = .exclusive
        trip.vehicleId = "v\(i)"
        trip.pickupPoint = TerminalLocation(point: road[499])
        trip.dropoffPoint = TerminalLocation(point: LatLng(latitude: road[499].latitude + 0.01, longitude: road[499].longitude))
        _ = try await store.createTrip(provider: "bench", id: "t\(i)", input: trip)
    }
    return (store, routes)
}

/// State made once per benchmark by its setup hook (package-benchmark runs setup before
/// the measured iterations).
final class Fixture: @unchecked Sendable {
    var store: Fleet?
    var routes: [[LatLng]] = []
    var vehicle: Vehicle?
    var trip: Trip?
    var step = 0

    func seed(vehicles: Int) async throws {
        (store, routes) = try await seededStore(vehicles: vehicles)
        vehicle = try await store?.vehicle(provider: "bench", id: "v0")
        trip = try await store?.trip(provider: "bench", id: "t0")
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10, maxDuration: .seconds(3))
    let fixture = Fixture()

    Benchmark(
        "updateVehicle lastLocation (500-point route, 1 trip, SQLite commit)",
        closure: { benchmark in
            guard let store = fixture.store else { return }
            let mask = FieldMask("lastLocation")
            for _ in benchmark.scaledIterations {
                fixture.step += 1
                let i = fixture.step % fixture.routes.count
                var update = Vehicle(name: "")
                update.lastLocation = VehicleLocation(location: fixture.routes[i][(fixture.step / fixture.routes.count) % 499])
                blackHole(try await store.updateVehicle(provider: "bench", id: "v\(i)", input: update, mask: mask))
            }
        }, setup: { try await fixture.seed(vehicles: 100) })

    // 64 updates at once, as 64 connections send them: they share transactions (group
    // commit), so this is the writer's ceiling under load. One iteration is 64 updates.
    Benchmark(
        "64 simultaneous updateVehicle lastLocation (group commit)",
        closure: { benchmark in
            guard let store = fixture.store else { return }
            let mask = FieldMask("lastLocation")
            for _ in benchmark.scaledIterations {
                fixture.step += 1
                let step = fixture.step
                let routes = fixture.routes
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for i in 0..<64 {
                        var update = Vehicle(name: "")
                        update.lastLocation = VehicleLocation(location: routes[i][step % 499])
                        group.addTask { blackHole(try await store.updateVehicle(provider: "bench", id: "v\(i)", input: update, mask: mask)) }
                    }
                    try await group.waitForAll()
                }
            }
        }, setup: { try await fixture.seed(vehicles: 100) })

    Benchmark(
        "read trip (cached decode)",
        closure: { benchmark in
            guard let store = fixture.store else { return }
            for i in benchmark.scaledIterations {
                blackHole(try await store.revisionedTrip(provider: "bench", id: "t\(i % 100)"))
            }
        }, setup: { try await fixture.seed(vehicles: 100) })

    // The pieces: refresh of the derived state, and the JSON of what is stored.
    Benchmark(
        "JourneyState.refresh (500-point route)",
        closure: { benchmark in
            guard let vehicle = fixture.vehicle, let trip = fixture.trip else { return }
            for i in benchmark.scaledIterations {
                var v = vehicle
                var trips = [trip]
                var tracking = RouteTracking()
                v.lastLocation = VehicleLocation(location: fixture.routes[0][i % 499])
                try JourneyState.refresh(
                    vehicle: &v, trips: &trips, tracking: &tracking,
                    trigger: .init(now: Timestamp(Date()), locationUpdated: true))
                blackHole(trips)
            }
        }, setup: { try await fixture.seed(vehicles: 1) })

    Benchmark(
        "encode stored vehicle + trip JSON",
        closure: { benchmark in
            guard let vehicle = fixture.vehicle, let trip = fixture.trip else { return }
            for _ in benchmark.scaledIterations {
                blackHole(try JSONCoding.encode(vehicle))
                blackHole(try JSONCoding.encode(trip))
            }
        }, setup: { try await fixture.seed(vehicles: 1) })
}
