import Fleet
import Foundation
import GRDB
import Geo
import JSON
import SQLiteStore
import Testing
import TripModel
import TripStore
import TripStoreTesting

/// A vehicle's route segment lives in its own row (migration 0018), written when it changes:
/// a database from before keeps its routes, and location updates leave the route row alone.
@Suite struct RouteStorageTests {
    /// A connection of the test's own beside the store's, waiting for its locks as the store
    /// does: without a busy timeout, opening it while the store wrote failed now and then with
    /// "database is locked".
    func inspector(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    let road = (0..<800).map { LatLng(latitude: 37.39 + Double($0) * 0.00002, longitude: -122 + 0.00001 * sin(Double($0) / 7)) }

    /// Routes stored inside vehicle bodies before 0018 are moved to their rows and read back
    /// as they were; the vehicle then drives along them.
    @Test func oldDatabaseKeepsItsRoutes() async throws {
        let path = try temporaryDatabasePath()
        let segment = EncodedPolyline.encode(road)
        do {
            let queue = try inspector(path)
            try Migrations.migrator().migrate(queue, upTo: "0017_area_observations")
            try await queue.write { db in
                for (i, route) in [segment, nil].enumerated() {
                    var vehicle = vehicleInput(at: road[0])
                    vehicle.name = "providers/p/vehicles/v\(i)"
                    vehicle.currentRouteSegment = route
                    vehicle.currentRouteSegmentVersion = route == nil ? nil : fixedTime
                    try db.execute(
                        sql: """
                            INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, body, tracking)
                            VALUES ('p', ?, 1, 'ONLINE', ?, ?, ?, ?)
                            """,
                        arguments: [
                            "v\(i)", road[0].latitude, road[0].longitude, try JSONCoding.encodeText(vehicle),
                            try JSONCoding.encodeText(RouteTracking()),
                        ])
                }
            }
        }
        let store = try SQLiteTripStore(path: path)
        #expect(store.newlyAppliedMigrations.contains("0018_vehicle_routes"))
        let fleet = fleet(store)
        #expect(try await fleet.vehicle(provider: "p", id: "v0").currentRouteSegment == segment)
        #expect(try await fleet.vehicle(provider: "p", id: "v1").currentRouteSegment == nil)
        let moved = try await fleet.updateVehicle(
            provider: "p", id: "v0", input: location(road[400].latitude, road[400].longitude), mask: FieldMask("lastLocation"))
        #expect(moved.currentRouteSegment == segment)
        let half = StoreConformance.metersLeft(on: road, from: 400)
        #expect(abs(Double(moved.remainingDistanceMeters ?? -1) - half) < 2, "\(String(describing: moved.remainingDistanceMeters)) of \(half) m")
        let queue = try inspector(path)
        let (bodiesWithRoute, routes) = try await queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM vehicles WHERE body LIKE '%currentRouteSegment\"%'"),
                try String.fetchAll(db, sql: "SELECT polyline FROM vehicle_routes")
            )
        }
        #expect(bodiesWithRoute == 0)
        #expect(routes == [segment])
    }

    /// A database whose route rows hold a distance per vertex, as 0018 stored them, gets the
    /// routes' checkpoints from 0021 (issue 30): with nothing cached, the vehicle, its trip and
    /// its next update read as in a database written with checkpoints from the start.
    @Test func routesStoredWithDistancesGetCheckpoints() async throws {
        let segment = EncodedPolyline.encode(road)
        var paths: [String] = []
        for _ in 0..<2 {
            let path = try temporaryDatabasePath()
            let writer = fleet(try SQLiteTripStore(path: path))
            var input = vehicleInput(at: road[0])
            input.currentRouteSegment = segment
            _ = try await writer.createVehicle(provider: "p", id: "v1", input: input)
            _ = try await writer.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: road[road.count - 1]))
            _ = try await writer.updateVehicle(
                provider: "p", id: "v1", input: location(road[300].latitude, road[300].longitude), mask: FieldMask("lastLocation"))
            paths.append(path)
        }
        // The second database's route row as it stood before 0021.
        let measure = try #require(PolylineMeasure(try EncodedPolyline.decode(segment)))
        let queue = try inspector(paths[1])
        try await queue.write { db in
            try db.execute(sql: "ALTER TABLE vehicle_routes RENAME COLUMN checkpoints TO cumulative")
            try db.execute(sql: "UPDATE vehicle_routes SET cumulative = ?", arguments: [Data(StoredRoute.bytes(measure.cumulativeMeters))])
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '0021_vehicle_route_checkpoints'")
        }

        let migrated = try SQLiteTripStore(path: paths[1])
        #expect(migrated.newlyAppliedMigrations == ["0021_vehicle_route_checkpoints"])
        let stored = try await queue.read { db in try Data.fetchOne(db, sql: "SELECT checkpoints FROM vehicle_routes") }
        #expect(stored.map { [UInt8]($0) } == StoredRoute.checkpointBytes(try #require(MeasuredRoute(polyline: segment))))
        let fresh = fleet(try SQLiteTripStore(path: paths[0]))
        let reader = fleet(migrated)
        #expect(try await reader.vehicle(provider: "p", id: "v1") == fresh.vehicle(provider: "p", id: "v1"))
        #expect(try await reader.trip(provider: "p", id: "t1") == fresh.trip(provider: "p", id: "t1"))
        let next = location(road[340].latitude, road[340].longitude)
        let moved = try await reader.updateVehicle(provider: "p", id: "v1", input: next, mask: FieldMask("lastLocation"))
        #expect(try await moved == fresh.updateVehicle(provider: "p", id: "v1", input: next, mask: FieldMask("lastLocation")))
        #expect(moved.waypoints.first?.encodedPathToWaypoint != nil)
    }

    /// Location updates write the vehicle's row, not its route's; a new segment is written once.
    @Test func locationUpdatesLeaveTheRouteRow() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let fleet = fleet(store)
        var input = vehicleInput(at: road[0])
        input.currentRouteSegment = EncodedPolyline.encode(road)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: input)
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: road[road.count - 1]))
        let queue = try inspector(path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE route_writes (n INTEGER);
                    CREATE TRIGGER route_inserted AFTER INSERT ON vehicle_routes BEGIN INSERT INTO route_writes VALUES (1); END;
                    CREATE TRIGGER route_updated AFTER UPDATE ON vehicle_routes BEGIN INSERT INTO route_writes VALUES (1); END;
                    """)
        }
        for step in stride(from: 10, to: 300, by: 10) {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: location(road[step].latitude, road[step].longitude), mask: FieldMask("lastLocation"))
        }
        let writes = { try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM route_writes") } }
        #expect(try await writes() == 0)
        var rerouted = location(road[300].latitude, road[300].longitude)
        rerouted.currentRouteSegment = EncodedPolyline.encode(Array(road[300...]))
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: rerouted, mask: FieldMask("lastLocation,currentRouteSegment"))
        #expect(try await writes() == 1)
    }

    /// The path to the vehicle's first stop is the rest of its route: the vehicle's row leaves
    /// it out, and so does its trip's row (which reads its live fields from the vehicle), so
    /// neither grows with the route, and a store opened afresh (nothing cached) reads the
    /// vehicle, its trip and the listing as the update answered them.
    @Test func firstStopPathIsCutOnReadNotStored() async throws {
        var bodyBytes: [Int] = []
        var tripBytes: [Int] = []
        for points in [800, 8_000] {
            let road = (0..<points).map { LatLng(latitude: 37.39 + Double($0) * 0.00002, longitude: -122 + 0.00001 * sin(Double($0) / 7)) }
            let path = try temporaryDatabasePath()
            let writer = fleet(try SQLiteTripStore(path: path))
            var input = vehicleInput(at: road[0])
            input.currentRouteSegment = EncodedPolyline.encode(road)
            _ = try await writer.createVehicle(provider: "p", id: "v1", input: input)
            _ = try await writer.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: road[points - 1]))
            let step = points / 3
            let answered = try await writer.updateVehicle(
                provider: "p", id: "v1", input: location(road[step].latitude, road[step].longitude), mask: FieldMask("lastLocation"))
            let firstPath = try #require(answered.waypoints.first?.encodedPathToWaypoint)
            #expect(try EncodedPolyline.decode(firstPath).count >= points - step - 1)

            let reader = fleet(try SQLiteTripStore(path: path))
            #expect(try await reader.vehicle(provider: "p", id: "v1") == answered)
            #expect(try await reader.trip(provider: "p", id: "t1").remainingWaypoints.first?.encodedPathToWaypoint == firstPath)
            let listed = try await fleet(try SQLiteTripStore(path: path)).listVehicles(
                provider: "p", page: PageRequest(pageSize: 10, pageToken: nil))
            #expect(listed.items == [answered])
            let queue = try inspector(path)
            bodyBytes.append(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT length(body) FROM vehicles") } ?? -1)
            tripBytes.append(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT length(body) FROM trips") } ?? -1)
        }
        // Ten times the route, the same rows (give or take the digits of a few numbers).
        #expect(abs(bodyBytes[1] - bodyBytes[0]) < 64, "vehicle rows of \(bodyBytes) bytes")
        #expect(abs(tripBytes[1] - tripBytes[0]) < 64, "trip rows of \(tripBytes) bytes")
    }
}
