// The store's write path without HTTP: vehicle location updates on vehicles with a
// 500-point route segment and an assigned trip, committed to SQLite one at a time and 64 at
// once (the writer's ceiling on updates/s), and the pieces they spend their time on. Then the
// read and write paths at 1,000 and 50,000 vehicles and trips, each vehicle and trip picked at
// random as riders and drivers do (issue 30: their cost must not grow with the fleet), and a
// location update on a 500- against a 20,000-point route.

import Benchmark
import Fleet
import Foundation
import Geo
import JSON
import SQLiteStore
import TestKit
import TripModel

/// A road of `points` points (about 2 m apart) heading north with a slight wiggle, as
/// Benchmarks/Load/load_seed.py makes.
private func route(_ i: Int, points: Int = 500) -> [LatLng] {
    let lat0 = 37.3 + Double(i % 100) * 0.002
    let lng0 = -122.1 + Double(i / 100) * 0.002
    return (0..<points).map { k in LatLng(latitude: lat0 + Double(k) * 0.00002, longitude: lng0 + 0.00001 * sin(Double(k) / 7)) }
}

/// A fleet on a new SQLite database: `vehicles` vehicles with routes of `points` points and
/// one trip each, picked up at the route's end; created 64 at a time (they share commits).
private func seededStore(vehicles: Int, points: Int = 500) async throws -> (Fleet, [[LatLng]]) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = Fleet(store: try SQLiteTripStore(path: directory.appendingPathComponent("bench.sqlite").path))
    // Only the first 100 routes are kept: the updates drive along those (every 100th vehicle
    // shares a road), which keeps a 50,000-vehicle fleet's routes out of the benchmark's memory.
    let routes = (0..<min(vehicles, 100)).map { route($0, points: points) }
    for start in stride(from: 0, to: vehicles, by: 64) {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in start..<min(start + 64, vehicles) {
                let road = routes[i % routes.count]
                group.addTask { try await seed(store, i, road: road) }
            }
            try await group.waitForAll()
        }
    }
    return (store, routes)
}

/// Vehicle `i` on `road`, with its trip.
private func seed(_ store: Fleet, _ i: Int, road: [LatLng]) async throws {
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
    trip.pickupPoint = TerminalLocation(point: road[road.count - 1])
    trip.dropoffPoint = TerminalLocation(point: LatLng(latitude: road[road.count - 1].latitude + 0.01, longitude: road[road.count - 1].longitude))
    _ = try await store.createTrip(provider: "bench", id: "t\(i)", input: trip)
}

/// State made once per benchmark by its setup hook (package-benchmark runs setup before
/// the measured iterations).
final class Fixture: @unchecked Sendable {
    var store: Fleet?
    var routes: [[LatLng]] = []
    var vehicle: Vehicle?
    var trip: Trip?
    var step = 0

    var vehicles = 0
    /// A random number generator with a fixed seed, so runs pick the same vehicles.
    var random = SplitMix64(seed: 30)

    func seed(vehicles: Int, points: Int = 500) async throws {
        (store, routes) = try await seededStore(vehicles: vehicles, points: points)
        self.vehicles = vehicles
        vehicle = try await store?.vehicle(provider: "bench", id: "v0")
        trip = try await store?.trip(provider: "bench", id: "t0")
    }
}

/// A location update of a random vehicle of `fixture`'s fleet, a step further along its road.
private func updateRandomVehicle(_ fixture: Fixture, mask: FieldMask) async throws {
    guard let store = fixture.store else { return }
    fixture.step += 1
    let i = Int.random(in: 0..<fixture.vehicles, using: &fixture.random)
    let road = fixture.routes[i % fixture.routes.count]
    var update = Vehicle(name: "")
    update.lastLocation = VehicleLocation(location: road[fixture.step % min(road.count - 1, 499)])
    blackHole(try await store.updateVehicle(provider: "bench", id: "v\(i)", input: update, mask: mask))
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

    // What a read that misses the caches pays for the rows: the stores' decoder against the
    // strict one requests go through (issue 30).
    for (name, strict) in [("StoredJSONDecoder", false), ("StrictJSONDecoder", true)] {
        Benchmark(
            "decode stored vehicle + trip JSON (\(name))",
            closure: { benchmark in
                guard let vehicle = fixture.vehicle, let trip = fixture.trip else { return }
                let rows = (
                    String(decoding: try JSONCoding.encode(vehicle), as: UTF8.self), String(decoding: try JSONCoding.encode(trip), as: UTF8.self)
                )
                for _ in benchmark.scaledIterations {
                    if strict {
                        blackHole(try StrictJSONDecoder().decode(Vehicle.self, from: Array(rows.0.utf8), root: "stored"))
                        blackHole(try StrictJSONDecoder().decode(Trip.self, from: Array(rows.1.utf8), root: "stored"))
                    } else {
                        blackHole(try StoredJSONDecoder.decode(Vehicle.self, from: rows.0, root: "stored"))
                        blackHole(try StoredJSONDecoder.decode(Trip.self, from: rows.1, root: "stored"))
                    }
                }
            }, setup: { try await fixture.seed(vehicles: 1) })
    }

    // The read and write paths at 1,000 and 50,000 rows (seeding 50,000 vehicles and trips
    // takes a minute or two): a random trip as riders read it, and a location update of a
    // random vehicle. With the default cache budget both should cost the same at either size.
    for size in [1_000, 50_000] {
        let fleet = Fixture()
        Benchmark(
            "read trip, random of \(size) trips",
            closure: { benchmark in
                guard let store = fleet.store else { return }
                for _ in benchmark.scaledIterations {
                    let i = Int.random(in: 0..<fleet.vehicles, using: &fleet.random)
                    blackHole(try await store.revisionedTrip(provider: "bench", id: "t\(i)"))
                }
            },
            setup: {
                // Every trip read once, as on a server that has been running a while.
                try await fleet.seed(vehicles: size)
                for i in 0..<size { blackHole(try await fleet.store?.revisionedTrip(provider: "bench", id: "t\(i)")) }
            })
        Benchmark(
            "updateVehicle lastLocation, random of \(size) vehicles",
            closure: { benchmark in
                let mask = FieldMask("lastLocation")
                for _ in benchmark.scaledIterations { try await updateRandomVehicle(fleet, mask: mask) }
            }, setup: { try await fleet.seed(vehicles: size) })
    }

    // Route length: the same update on 100 vehicles whose routes have 500 or 20,000 points
    // (issue 30 asks for at most 1.5 times the cost).
    for points in [500, 20_000] {
        let fleet = Fixture()
        Benchmark(
            "updateVehicle lastLocation, \(points)-point routes",
            closure: { benchmark in
                let mask = FieldMask("lastLocation")
                for _ in benchmark.scaledIterations { try await updateRandomVehicle(fleet, mask: mask) }
            }, setup: { try await fleet.seed(vehicles: 100, points: points) })
    }
}
