import Caching
import Geo
import Testing
import TripModel
import TripStore

@Suite struct DecodedRowCachesTests {
    /// A vehicle on a road heading north with a route of `points` points, about 2 m apart, and
    /// its first waypoint's path along the whole route (what a location update stores).
    static func vehicle(_ i: Int, points: Int) -> VehicleRecord {
        let road = (0..<points).map { k in
            LatLng(latitude: 37.3 + Double(i % 100) * 0.002 + Double(k) * 0.00002, longitude: -122.1 + Double(i / 100) * 0.002)
        }
        var vehicle = Vehicle(name: "providers/p/vehicles/v\(i)")
        vehicle.currentRouteSegment = EncodedPolyline.encode(road)
        var stop = TripWaypoint()
        stop.tripId = "t\(i)"
        stop.encodedPathToWaypoint = EncodedPolyline.encode(road)
        vehicle.waypoints = [stop]
        return VehicleRecord(vehicle: vehicle, tracking: RouteTracking())
    }

    /// The decoded rows never hold more than the budget's pool, however many vehicles pass
    /// through, and the ones stored last are still there.
    @Test func decodedVehiclesStayWithinThePool() {
        let budget = CacheBudget(bytes: 4 << 20)
        let caches = DecodedRowCaches(budget: budget)
        for i in 0..<2_000 {
            caches.vehicles.store(Self.vehicle(i, points: 500), for: "p/v\(i)", version: 1)
            #expect(budget.caches.bytes <= budget.caches.limit)
            #expect(caches.vehicles.bytes + caches.trips.bytes + caches.composedTrips.bytes == budget.caches.bytes)
        }
        #expect(caches.vehicles.count > 100 && caches.vehicles.count < 2_000)
        #expect(caches.vehicles.value(for: "p/v1999", version: 1) != nil)
        #expect(caches.vehicles.value(for: "p/v1999", version: 2) == nil)
    }

    /// A reader that needs only the vehicle gets it from the entry of the version asked for,
    /// and nothing for another version or an unknown key, as whole reads do; a newer version
    /// stored under the key replaces the older.
    @Test func aMemberIsReadOnlyFromTheVersionHeld() {
        let caches = DecodedRowCaches(budget: CacheBudget(bytes: 10 << 20))
        let first = Self.vehicle(1, points: 50)
        caches.vehicles.store(first, for: "p/v1", version: 1)
        #expect(caches.vehicles.value(for: "p/v1", version: 1, { $0.vehicle }) == first.vehicle)
        #expect(caches.vehicles.value(for: "p/v1", version: 2, { $0.vehicle }) == nil)
        #expect(caches.vehicles.value(for: "p/v2", version: 1, { $0.vehicle }) == nil)
        let second = Self.vehicle(2, points: 80)
        caches.vehicles.store(second, for: "p/v1", version: 2)
        #expect(caches.vehicles.value(for: "p/v1", version: 2, { $0.vehicle.name }) == second.vehicle.name)
        #expect(caches.vehicles.value(for: "p/v1", version: 1, { $0.vehicle }) == nil)
        #expect(caches.vehicles.value(for: "p/v1", version: 2) == second)
    }

    /// A vehicle is charged for its route: one with a 20,000-point route costs more than one
    /// with 500 points by what its longer polylines hold, so a fleet of long routes holds
    /// fewer vehicles in the same memory rather than more memory.
    @Test func aLongRouteCostsInProportion() {
        func polylineBytes(_ record: VehicleRecord) -> Int {
            (record.vehicle.currentRouteSegment?.utf8.count ?? 0) + (record.vehicle.waypoints[0].encodedPathToWaypoint?.utf8.count ?? 0)
        }
        let short = Self.vehicle(1, points: 500)
        let long = Self.vehicle(1, points: 20_000)
        #expect(short.approximateBytes > polylineBytes(short) && short.approximateBytes < polylineBytes(short) + 4_096)
        let growth = Double(long.approximateBytes - short.approximateBytes) / Double(polylineBytes(long) - polylineBytes(short))
        #expect(growth > 0.99 && growth < 1.01, "\(short.approximateBytes) and \(long.approximateBytes) bytes")
    }

    /// Once the pool is full, vehicles are held without the stretch of route each keeps
    /// between updates, and so cost less: a full pool holds more vehicles than it would with
    /// their stretches, where one with room keeps the stretches that save an update measuring.
    @Test func aFullPoolHoldsVehiclesWithoutTheirKeptStretches() throws {
        func routed(_ i: Int) throws -> VehicleRecord {
            var record = Self.vehicle(i, points: 500)
            record.route = MeasuredRoute(polyline: try #require(record.vehicle.currentRouteSegment))
            try #require(record.route != nil)
            return record
        }
        let first = try routed(0)
        let kept = try #require(first.route?.kept)
        #expect(kept.stretch(of: try #require(first.route?.line)) != nil, "a 2 m spaced 500-point route is kept whole")
        let stripped = first.withoutKeptStretch
        #expect(stripped.route?.kept == nil && stripped.route == first.route && stripped == first)
        let saved = first.approximateBytes - stripped.approximateBytes
        #expect(saved == first.route?.line.keptStretchBytes && saved >= 4_000, "\(saved) bytes")

        let budget = CacheBudget(bytes: 2 << 20)
        let caches = DecodedRowCaches(budget: budget)
        caches.apply([.vehicle("p/v0", 1, first)])
        #expect(caches.vehicles.value(for: "p/v0", version: 1)?.route?.kept != nil, "a pool with room keeps the stretch")
        for i in 1..<1_000 { caches.apply([.vehicle("p/v\(i)", 1, try routed(i))]) }
        #expect(budget.caches.isFull)
        let last = try #require(caches.vehicles.value(for: "p/v999", version: 1))
        let stored = try routed(999)
        #expect(last.route?.kept == nil && last.route == stored.route)
        // What a pool of vehicles with stretches would hold, against what it holds.
        let withStretches = budget.caches.limit / first.approximateBytes
        #expect(Double(caches.vehicles.count) > 1.5 * Double(withStretches), "\(caches.vehicles.count) held, \(withStretches) with stretches")
    }

    /// A written trip whose live fields come from its vehicle is held as its row stores it,
    /// without the vehicle's route segment and the paths of its remaining waypoints, which a
    /// reader takes from the vehicle: a read then gets what a read of the row would decode, and
    /// the entry costs a fraction of the written trip. A trip that keeps its own live fields is
    /// held whole.
    @Test func aWrittenTripIsHeldAsItsRowStoresIt() throws {
        let vehicle = Self.vehicle(1, points: 500).vehicle
        var trip = Trip(name: "providers/p/trips/t1")
        trip.vehicleId = "v1"
        trip.currentRouteSegment = vehicle.currentRouteSegment
        trip.remainingWaypoints = vehicle.waypoints
        let written = TripRow(trip: trip, progressFromVehicle: true)
        let caches = DecodedRowCaches(budget: CacheBudget(bytes: 10 << 20))
        caches.apply([.trip("p/t1", 1, written), .trip("p/t2", 1, TripRow(trip: trip, progressFromVehicle: false))])

        let held = try #require(caches.trips.value(for: "p/t1", version: 1))
        #expect(held.trip == written.storedTrip && held.progressFromVehicle)
        #expect(held.trip.remainingWaypoints.isEmpty && held.trip.currentRouteSegment == nil)
        #expect(held.trip.withProgress(of: vehicle) == trip.withProgress(of: vehicle))
        let entry = held.approximateBytes
        #expect(entry + 2 * 1_000 < written.approximateBytes, "\(entry) bytes held for a trip of \(written.approximateBytes)")
        #expect(caches.trips.value(for: "p/t2", version: 1)?.trip == trip)
    }

    /// A value too large for the whole pool is not kept at all (a budget of 0 caches nothing),
    /// and reads still answer nil rather than a stale value.
    @Test func aZeroBudgetCachesNothing() {
        let caches = DecodedRowCaches(budget: CacheBudget(megabytes: 0))
        caches.vehicles.store(Self.vehicle(1, points: 500), for: "p/v1", version: 1)
        #expect(caches.vehicles.count == 0)
        #expect(caches.vehicles.value(for: "p/v1", version: 1) == nil)
    }
}
