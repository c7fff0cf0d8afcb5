// SearchVehicles and ListVehicles over 10,000 vehicles (issue 31): a search with an
// attribute filter, and with attribute requirements, beside the same search without them
// (the reference: at least half its rate); a listing with a filter, a page of 100 and the
// count of every match, beside the listing without one. On SQLite; on PostgreSQL too when
// TRIPSHARE_BENCH_POSTGRES_URL names a database (in a new schema, bench_N, left behind: use a
// throwaway cluster, scripts/postgres).
//
// The fleet: 10,000 ONLINE vehicles spread uniformly over a 30 x 30 km city, four
// categories, capacities 2-7, attributes color (4 values), tier (3), seats (a number) and pet
// (a boolean). A search looks 3 km around one of 16 pickups (some 300 vehicles in the box).

import Benchmark
import Fleet
import Foundation
import Geo
import PostgresStore
import SQLiteStore
import TestKit
import TripModel
import TripStore

private let vehicleCount = 10_000

private func seed(_ fleet: Fleet) async throws {
    var random = SplitMix64(seed: 10_000)
    for i in 0..<vehicleCount {
        var vehicle = Vehicle(name: "")
        vehicle.vehicleState = .online
        vehicle.supportedTripTypes = [.exclusive, .shared]
        vehicle.maximumCapacity = Int.random(in: 2...7, using: &random)
        vehicle.vehicleType = VehicleType(category: [.auto, .taxi, .truck, .twoWheeler][i % 4])
        vehicle.lastLocation = VehicleLocation(
            location: LatLng(
                latitude: Double.random(in: 37.25...37.52, using: &random), longitude: Double.random(in: -122.2 ... -121.86, using: &random)))
        vehicle.attributes = [
            Attribute(key: "color", stringValue: ["black", "white", "red", "blue"].randomElement(using: &random)!),
            Attribute(key: "tier", stringValue: ["gold", "silver", "bronze"].randomElement(using: &random)!),
        ]
        var seats = Attribute(key: "seats", stringValue: "")
        seats.stringValue = nil
        seats.numberValue = Double(Int.random(in: 4...7, using: &random))
        var pet = Attribute(key: "pet", stringValue: "")
        pet.stringValue = nil
        pet.boolValue = Bool.random(using: &random)
        vehicle.attributes += [seats, pet]
        _ = try await fleet.createVehicle(provider: "bench", id: "v\(i)", input: vehicle)
    }
}

/// The pickups searches rotate through: a 4 x 4 grid over the city.
private let pickups: [LatLng] = (0..<16).map { LatLng(latitude: 37.30 + Double($0 / 4) * 0.06, longitude: -122.15 + Double($0 % 4) * 0.08) }

private func search(_ i: Int, _ change: (inout VehicleSearchQuery) -> Void = { _ in }) -> VehicleSearchQuery {
    var query = VehicleSearchQuery(
        pickupPoint: TerminalLocation(point: pickups[i % pickups.count]), pickupRadiusMeters: 3_000, count: 10, minimumCapacity: 2,
        tripTypes: [.exclusive], orderBy: .pickupPointETA)
    change(&query)
    return query
}

private let filter = #"attributes.color = "black" AND (attributes.tier = "gold" OR attributes.tier = "silver")"#

/// The fleet of one store kind, seeded once by the first benchmark that needs it.
final class Fixture: @unchecked Sendable {
    let kind: String
    var fleet: Fleet?

    init(kind: String) { self.kind = kind }

    func prepare() async throws {
        guard fleet == nil else { return }
        let store: any TripStore
        if kind == "SQLite" {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteTripStore(path: directory.appendingPathComponent("bench.sqlite").path)
        } else {
            guard let url = ProcessInfo.processInfo.environment["TRIPSHARE_BENCH_POSTGRES_URL"] else { return }
            var location = try PostgresLocation(url: url)
            location.schema = "bench_\(UInt32.random(in: 0...UInt32.max))"
            store = try await PostgresTripStore(location: location)
        }
        let fleet = Fleet(store: store)
        try await seed(fleet)
        self.fleet = fleet
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 20, maxDuration: .seconds(5), maxIterations: 2_000)
    var kinds = ["SQLite"]
    if ProcessInfo.processInfo.environment["TRIPSHARE_BENCH_POSTGRES_URL"] != nil { kinds.append("PostgreSQL") }
    for kind in kinds {
        let fixture = Fixture(kind: kind)
        func measure(_ name: String, _ body: @escaping @Sendable (Fleet, Int) async throws -> Void) {
            Benchmark(
                "\(name) (10,000 vehicles, \(kind))",
                closure: { benchmark in
                    guard let fleet = fixture.fleet else { return }
                    for i in benchmark.scaledIterations { try await body(fleet, i) }
                }, setup: { try await fixture.prepare() })
        }

        measure("SearchVehicles, no filter") { fleet, i in
            blackHole(try await fleet.searchVehicles(provider: "bench", query: search(i)))
        }
        measure("SearchVehicles, filter") { fleet, i in
            blackHole(try await fleet.searchVehicles(provider: "bench", query: search(i) { $0.filter = filter }))
        }
        measure("SearchVehicles, required attributes") { fleet, i in
            let query = search(i) {
                $0.requiredAttributes = [Attribute(key: "color", stringValue: "black")]
                $0.requiredOneOfAttributes = [
                    .init(attributes: [Attribute(key: "tier", stringValue: "gold"), Attribute(key: "tier", stringValue: "silver")])
                ]
            }
            blackHole(try await fleet.searchVehicles(provider: "bench", query: query))
        }
        measure("ListVehicles, page of 100, no filter") { fleet, _ in
            let query = VehicleListQuery(vehicleTypeCategories: VehicleCategory.allCases, pageSize: 100)
            blackHole(try await fleet.listVehicles(provider: "bench", query: query))
        }
        measure("ListVehicles, filter, page of 100") { fleet, _ in
            var query = VehicleListQuery(vehicleTypeCategories: [.auto, .taxi], pageSize: 100)
            query.filter = filter
            blackHole(try await fleet.listVehicles(provider: "bench", query: query))
        }
    }
}
