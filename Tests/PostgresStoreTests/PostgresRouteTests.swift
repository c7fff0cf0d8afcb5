import Fleet
import Foundation
import Geo
import JSON
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
        _ = try await first.rows("DELETE FROM schema_migrations WHERE name = '0009_vehicle_routes'")
        _ = try await first.rows(
            "INSERT INTO vehicles (provider, vehicle_id, row_version, body, tracking) VALUES ('p', 'v1', 1, \(body), \(tracking))")
        let reopened = try await PostgresTripStore(location: first.location, maximumConnections: 2, liveness: .patient, logger: TestStores.logger)
        #expect(reopened.migrations.appliedNow == ["0009_vehicle_routes"])
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
