import Fleet
import Foundation
import Geo
import JSON
import NIOCore
import PostgresNIO
import StoreVariants
import Testing
import TripModel
import TripStore
import TripStoreTesting

@testable import PostgresStore

/// A vehicle's route segment lives in its own row (migration 0009), written when it changes:
/// a database from before keeps its routes, and every process reads them.
@Suite(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) struct PostgresRouteTests {
    let road = (0..<800).map { LatLng(latitude: 37.39 + Double($0) * 0.00002, longitude: -122 + 0.00001 * sin(Double($0) / 7)) }

    /// A vehicle at the start of ``road``, driving it.
    func vehicleAtRoadStart() -> Vehicle {
        var input = onlineVehicle()
        input.lastLocation = VehicleLocation(location: road[0])
        input.currentRouteSegment = EncodedPolyline.encode(road)
        return input
    }

    /// A route stored inside a vehicle's body, as before 0009, is moved to its row when 0009
    /// runs and read back as it was, by the other process too; the vehicle drives along it.
    @Test func oldDatabaseKeepsItsRoutes() async throws {
        let (first, _) = try await twoProcesses()
        let segment = EncodedPolyline.encode(road)
        var vehicle = try Vehicle.created(from: onlineVehicle(), provider: "p", id: "v1", now: fixedTime)
        vehicle.lastLocation = VehicleLocation(location: road[0])
        vehicle.currentRouteSegment = segment
        vehicle.currentRouteSegmentVersion = fixedTime
        // The schema as it stood before 0009, holding a vehicle stored then.
        let body = try JSONCoding.encodeText(vehicle)
        let tracking = try JSONCoding.encodeText(RouteTracking())
        _ = try await first.rows("DROP TABLE vehicle_routes")
        _ = try await first.rows(
            "DELETE FROM schema_migrations WHERE name IN ('0009_vehicle_routes', '0010_vehicle_route_checkpoints')")
        _ = try await first.rows(
            "INSERT INTO vehicles (provider, vehicle_id, row_version, body, tracking) VALUES ('p', 'v1', 1, \(body), \(tracking))")
        let reopened = try await PostgresTripStore(location: first.location, maximumConnections: 2, liveness: .patient, logger: TestStores.logger)
        #expect(reopened.migrations.appliedNow == ["0009_vehicle_routes", "0010_vehicle_route_checkpoints"])
        let fleet = Fleet(store: reopened, clock: .fixed(fixedTime))
        #expect(try await fleet.vehicle(provider: "p", id: "v1").currentRouteSegment == segment)
        let moved = try await fleet.updateVehicle(
            provider: "p", id: "v1", input: locationUpdate(road[400].latitude, road[400].longitude), mask: FieldMask("lastLocation"))
        #expect(moved.currentRouteSegment == segment)
        let half = StoreConformance.metersLeft(on: road, from: 400)
        #expect(abs(Double(moved.remainingDistanceMeters ?? -1) - half) < 2)
        let other = Fleet(store: first, clock: .fixed(fixedTime))
        let seen = try await other.vehicle(provider: "p", id: "v1")
        #expect(seen.currentRouteSegment == segment && seen.remainingDistanceMeters == moved.remainingDistanceMeters)
        let bodies = try await first.rows("SELECT count(*) FROM vehicles WHERE body LIKE '%currentRouteSegment\"%'")
        #expect(try bodies.first?.decode(Int64.self) == 0)
    }

    /// A database whose route rows hold a distance per vertex, as 0009 stored them, gets the
    /// routes' checkpoints from 0010 (issue 30): the vehicle, its trip and its next update read
    /// as in a database written with checkpoints from the start.
    @Test func routesStoredWithDistancesGetCheckpoints() async throws {
        var stores: [PostgresTripStore] = []
        for _ in 0..<2 {
            let (store, _) = try await twoProcesses()
            let writer = Fleet(store: store, clock: .fixed(fixedTime))
            _ = try await writer.createVehicle(provider: "p", id: "v1", input: vehicleAtRoadStart())
            var trip = exclusiveTrip(vehicleId: "v1")
            trip.pickupPoint = TerminalLocation(point: road[road.count - 1])
            _ = try await writer.createTrip(provider: "p", id: "t1", input: trip)
            _ = try await writer.updateVehicle(
                provider: "p", id: "v1", input: locationUpdate(road[300].latitude, road[300].longitude), mask: FieldMask("lastLocation"))
            stores.append(store)
        }
        // The second database's route row as it stood before 0010.
        let old = stores[1]
        let measure = try #require(PolylineMeasure(try EncodedPolyline.decode(EncodedPolyline.encode(road))))
        let distances = ByteBuffer(bytes: StoredRoute.bytes(measure.cumulativeMeters))
        _ = try await old.rows("ALTER TABLE vehicle_routes RENAME COLUMN checkpoints TO cumulative")
        _ = try await old.rows("UPDATE vehicle_routes SET cumulative = \(distances)")
        _ = try await old.rows("DELETE FROM schema_migrations WHERE name = '0010_vehicle_route_checkpoints'")

        let migrated = try await PostgresTripStore(location: old.location, maximumConnections: 2, liveness: .patient, logger: TestStores.logger)
        #expect(migrated.migrations.appliedNow == ["0010_vehicle_route_checkpoints"])
        let stored = try await old.rows("SELECT checkpoints FROM vehicle_routes").first?.decode(ByteBuffer.self)
        let route = try #require(MeasuredRoute(polyline: EncodedPolyline.encode(road)))
        #expect(stored.map { Array($0.readableBytesView) } == StoredRoute.checkpointBytes(route))
        let unread = try await PostgresTripStore(location: stores[0].location, maximumConnections: 2, liveness: .patient, logger: TestStores.logger)
        let fresh = Fleet(store: unread, clock: .fixed(fixedTime))
        let reader = Fleet(store: migrated, clock: .fixed(fixedTime))
        #expect(try await reader.vehicle(provider: "p", id: "v1") == fresh.vehicle(provider: "p", id: "v1"))
        #expect(try await reader.trip(provider: "p", id: "t1") == fresh.trip(provider: "p", id: "t1"))
        let next = locationUpdate(road[340].latitude, road[340].longitude)
        let moved = try await reader.updateVehicle(provider: "p", id: "v1", input: next, mask: FieldMask("lastLocation"))
        #expect(try await moved == fresh.updateVehicle(provider: "p", id: "v1", input: next, mask: FieldMask("lastLocation")))
        #expect(moved.waypoints.first?.encodedPathToWaypoint != nil)
    }

    /// A route set or changed through one process is what the other reads, after location
    /// updates through either; the route row is written once per new segment.
    @Test func routesAreSharedAndWrittenWhenTheyChange() async throws {
        let (a, b) = try await twoProcesses()
        let fleetA = Fleet(store: a, clock: .fixed(fixedTime))
        let fleetB = Fleet(store: b, clock: .fixed(fixedTime))
        _ = try await fleetA.createVehicle(provider: "p", id: "v1", input: vehicleAtRoadStart())
        _ = try await fleetA.createTrip(provider: "p", id: "t1", input: exclusiveTrip(vehicleId: "v1"))
        // The route row's version (xmin moves whenever the row is written).
        let routeRow = { () async throws -> String? in
            try await a.rows("SELECT xmin::text FROM vehicle_routes").first?.decode(String.self)
        }
        let before = try await routeRow()
        for (k, step) in stride(from: 20, to: 400, by: 20).enumerated() {
            let writer = k.isMultiple(of: 2) ? fleetA : fleetB
            _ = try await writer.updateVehicle(
                provider: "p", id: "v1", input: locationUpdate(road[step].latitude, road[step].longitude), mask: FieldMask("lastLocation"))
        }
        #expect(try await routeRow() == before, "location updates rewrote the route row")
        #expect(try await fleetB.vehicle(provider: "p", id: "v1").currentRouteSegment == EncodedPolyline.encode(road))
        var rerouted = locationUpdate(road[400].latitude, road[400].longitude)
        rerouted.currentRouteSegment = EncodedPolyline.encode(Array(road[400...]))
        _ = try await fleetB.updateVehicle(provider: "p", id: "v1", input: rerouted, mask: FieldMask("lastLocation,currentRouteSegment"))
        #expect(try await routeRow() != before)
        #expect(try await fleetA.vehicle(provider: "p", id: "v1").currentRouteSegment == EncodedPolyline.encode(Array(road[400...])))
        #expect(try await fleetA.trip(provider: "p", id: "t1").currentRouteSegment == EncodedPolyline.encode(Array(road[400...])))
    }

    /// The path to the vehicle's first stop is the rest of its route: the vehicle's row leaves
    /// it out, the trip's row holds neither it nor the route, and the other process, which has
    /// cached nothing, reads the vehicle, its trip, the listing and the searches as the writer
    /// answered them.
    @Test func firstStopPathIsCutOnReadNotStored() async throws {
        let (a, b) = try await twoProcesses()
        let writer = Fleet(store: a, clock: .fixed(fixedTime))
        let reader = Fleet(store: b, clock: .fixed(fixedTime))
        _ = try await writer.createVehicle(provider: "p", id: "v1", input: vehicleAtRoadStart())
        var trip = exclusiveTrip(vehicleId: "v1")
        trip.pickupPoint = TerminalLocation(point: road[road.count - 1])
        _ = try await writer.createTrip(provider: "p", id: "t1", input: trip)
        let answered = try await writer.updateVehicle(
            provider: "p", id: "v1", input: locationUpdate(road[300].latitude, road[300].longitude), mask: FieldMask("lastLocation"))
        let firstPath = try #require(answered.waypoints.first?.encodedPathToWaypoint)

        #expect(try await reader.vehicle(provider: "p", id: "v1") == answered)
        #expect(try await reader.trip(provider: "p", id: "t1").remainingWaypoints.first?.encodedPathToWaypoint == firstPath)
        let listed = try await reader.listVehicles(provider: "p", page: PageRequest(pageSize: 10, pageToken: nil))
        #expect(listed.items == [answered])
        let found = try await reader.searchTrips(
            provider: "p", query: TripSearchQuery(vehicleId: "v1", activeTripsOnly: true, page: PageRequest(pageSize: 10, pageToken: nil)))
        #expect(found.items.map { $0.remainingWaypoints.first?.encodedPathToWaypoint } == [firstPath])
        // The path to the pickup is not in the row (the dropoff's, a straight stand-in, is).
        let bodies = try await a.rows("SELECT count(*) FROM vehicles WHERE strpos(body, \(firstPath)) > 0")
        #expect(try bodies.first?.decode(Int64.self) == 0)
        // Nor does the trip's row, which reads its live fields from the vehicle's.
        let trips = try await a.rows(
            "SELECT count(*) FROM trips WHERE body LIKE '%encodedPathToWaypoint%' OR body LIKE '%\"currentRouteSegment\"%'")
        #expect(try trips.first?.decode(Int64.self) == 0)
    }
}
