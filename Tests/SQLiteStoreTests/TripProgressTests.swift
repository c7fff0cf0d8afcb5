import Caching
import Fleet
import Foundation
import GRDB
import Geo
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripModelTesting
import TripStore

/// The SQLite store leaves a trip's row alone when a vehicle update changes only the trip's
/// live fields, and reads those from the vehicle row instead (migration 0006). Riders must
/// see exactly what the in-memory store, which rewrites every trip, shows them.
@Suite struct TripProgressTests {
    /// A 300-point road north from the pickup area, with a slow stretch the driver reports.
    static let road = (0..<300).map { LatLng(latitude: 37.38 + Double($0) * 0.0001, longitude: -122.0 + 0.00002 * sin(Double($0) / 9)) }

    static func routed(traffic: Bool) -> Vehicle {
        var input = vehicleInput(at: road[0])
        input.currentRouteSegment = EncodedPolyline.encode(road)
        if traffic {
            input.currentRouteSegmentTraffic = TrafficPolylineData(roadStretch: [
                RoadStretch(style: .slowerTraffic, offsetMeters: 800, lengthMeters: 900),
                RoadStretch(style: .trafficJam, offsetMeters: 2_000, lengthMeters: 300),
            ])
        }
        return input
    }

    static func drivingUpdate(_ step: Int, driverDistance: Int? = nil) -> (Vehicle, FieldMask) {
        var input = location(road[step].latitude + 0.00001, road[step].longitude)
        input.remainingDistanceMeters = driverDistance
        return (input, FieldMask(driverDistance == nil ? "lastLocation" : "lastLocation,remainingDistanceMeters"))
    }

    /// Both stores, stepped through the same writes with the same clock.
    struct Pair {
        let memory: Fleet
        let sqlite: Fleet
        let path: String
        let clock = ManualClock()

        init(cacheBudget: CacheBudget = .standard) throws {
            path = try temporaryDatabasePath()
            memory = Fleet(store: InMemoryTripStore(), clock: clock.wallClock)
            sqlite = Fleet(store: try SQLiteTripStore(path: path, cacheBudget: cacheBudget), clock: clock.wallClock)
        }

        func both(_ write: (Fleet) async throws -> Void) async throws {
            clock.advance()
            try await write(memory)
            try await write(sqlite)
        }

        func expectSameTrip(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let expected = try await memory.trip(provider: "p", id: id)
            #expect(try await sqlite.trip(provider: "p", id: id) == expected, sourceLocation: sourceLocation)
            let listed = try await sqlite.searchTrips(provider: "p", query: TripSearchQuery(page: PageRequest()))
            #expect(listed.items.first { $0.tripId == id } == expected, sourceLocation: sourceLocation)
        }
    }

    /// Both stores holding vehicle v1 on the road (with traffic) and trip t1 from the road's
    /// middle to its end.
    static func pairWithRoutedTrip() async throws -> Pair {
        let pair = try Pair()
        try await pair.both { store in
            _ = try await store.createVehicle(provider: "p", id: "v1", input: routed(traffic: true))
            _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: road[150], dropoff: road[299]))
        }
        return pair
    }

    /// Riders see the same trip from both stores through a whole journey: location updates
    /// along a route with traffic, a driver-sent distance, every status change; and again
    /// after the SQLite store is reopened with empty caches.
    @Test func sqliteReadsTheTripTheMemoryStoreKeeps() async throws {
        let pair = try await Self.pairWithRoutedTrip()
        try await pair.expectSameTrip("t1")
        for step in 1..<150 {
            let (input, mask) = Self.drivingUpdate(step, driverDistance: step % 10 == 0 ? 2_000 - step * 10 : nil)
            try await pair.both { store in _ = try await store.updateVehicle(provider: "p", id: "v1", input: input, mask: mask) }
            if step % 7 == 0 { try await pair.expectSameTrip("t1") }
            if step == 60 {
                try await pair.both { store in
                    _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(.enrouteToPickup), mask: FieldMask("tripStatus"))
                }
                try await pair.expectSameTrip("t1")
            }
        }
        for status in [TripStatus.arrivedAtPickup, .enrouteToDropoff] {
            try await pair.both { store in
                _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(status), mask: FieldMask("tripStatus"))
            }
            try await pair.expectSameTrip("t1")
        }
        for step in 150..<299 {
            let (input, mask) = Self.drivingUpdate(step)
            try await pair.both { store in _ = try await store.updateVehicle(provider: "p", id: "v1", input: input, mask: mask) }
            if step % 11 == 0 { try await pair.expectSameTrip("t1") }
        }
        let live = try await pair.memory.trip(provider: "p", id: "t1")
        #expect(live.tripStatus == .enrouteToDropoff && live.lastLocation?.location?.latitude ?? 0 > Self.road[298].latitude)
        let reopened = Fleet(store: try SQLiteTripStore(path: pair.path), clock: pair.clock.wallClock)
        #expect(try await reopened.trip(provider: "p", id: "t1") == live)
        try await pair.both { store in
            _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(.complete), mask: FieldMask("tripStatus"))
        }
        try await pair.expectSameTrip("t1")
        #expect(try progressColumns(pair.path, "t1").fromVehicle == false)
        // A new trip under the same ID is read as itself, not as what was cached for the old one.
        try await pair.both { store in
            try await store.deleteTrip(provider: "p", id: "t1")
            _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: Self.road[299]))
        }
        try await pair.expectSameTrip("t1")
        #expect(try await pair.sqlite.trip(provider: "p", id: "t1").pickupPoint?.point == Self.road[299])
    }

    /// With a cache budget the fleet outgrows, the SQLite store holds vehicles without the
    /// stretch of route each keeps between updates; a rider still sees exactly what the
    /// memory store shows, all along the route, from updates that found their vehicle held.
    @Test func aFullCachePoolDrivesTheSameTrip() async throws {
        let budget = CacheBudget(bytes: 256 << 10)
        let pair = try Pair(cacheBudget: budget)
        let others = 2...60
        try await pair.both { store in
            for i in others { _ = try await store.createVehicle(provider: "p", id: "v\(i)", input: Self.routed(traffic: false)) }
            _ = try await store.createVehicle(provider: "p", id: "v1", input: Self.routed(traffic: true))
            _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1", pickup: Self.road[150], dropoff: Self.road[299]))
        }
        for i in others { _ = try await pair.sqlite.vehicle(provider: "p", id: "v\(i)") }
        #expect(budget.caches.isFull)
        func vehicleHits() -> Int { budget.caches.statistics.first { $0.name == "decoded_vehicles" }?.hits ?? 0 }
        let hitsBefore = vehicleHits()
        let statusChanges: [Int: [TripStatus]] = [1: [.enrouteToPickup], 150: [.arrivedAtPickup, .enrouteToDropoff]]
        for step in 1..<299 {
            let (input, mask) = Self.drivingUpdate(step)
            try await pair.both { store in _ = try await store.updateVehicle(provider: "p", id: "v1", input: input, mask: mask) }
            if step % 13 == 0 { try await pair.expectSameTrip("t1") }
            for status in statusChanges[step] ?? [] {
                try await pair.both { store in
                    _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(status), mask: FieldMask("tripStatus"))
                }
            }
        }
        try await pair.expectSameTrip("t1")
        #expect(try await pair.sqlite.vehicle(provider: "p", id: "v1") == (try await pair.memory.vehicle(provider: "p", id: "v1")))
        #expect(budget.caches.isFull)
        #expect(vehicleHits() - hitsBefore > 200, "\(vehicleHits() - hitsBefore) updates found the vehicle held")
    }

    /// Location updates leave the trip row unwritten, yet the trip's revision (what caches of
    /// its views go by) moves with every one of them.
    @Test func locationUpdatesDoNotRewriteTheTripRow() async throws {
        let pair = try await Self.pairWithRoutedTrip()
        let (first, mask) = Self.drivingUpdate(1)
        _ = try await pair.sqlite.updateVehicle(provider: "p", id: "v1", input: first, mask: mask)
        let marked = try progressColumns(pair.path, "t1")
        #expect(marked.fromVehicle)
        var revisions: Set<Revision> = []
        for step in 2..<40 {
            let (input, mask) = Self.drivingUpdate(step)
            _ = try await pair.sqlite.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
            let trip = try await pair.sqlite.revisionedTrip(provider: "p", id: "t1")
            #expect(trip.value.lastLocation?.location?.latitude == Self.road[step].latitude + 0.00001)
            revisions.insert(trip.revision)
        }
        #expect(revisions.count == 38)
        #expect(try progressColumns(pair.path, "t1").rowVersion == marked.rowVersion)
    }

    /// A read that keeps something for the trip's current revision (a rider's encoded view) is
    /// answered with it from the versions alone; after a location update it is asked with the
    /// new revision, the one a full read gives, and the trip is read whole when it keeps
    /// nothing for that, on this server and on a fresh one (nothing cached).
    @Test func revisionFirstReadsStopAtAKeptRevision() async throws {
        let pair = try await Self.pairWithRoutedTrip()
        let fleet = pair.sqlite
        let before = try await fleet.revisionedTrip(provider: "p", id: "t1")
        let keeper = ViewKeeper(kept: before.revision)
        guard case .known(let view) = try await fleet.trip(provider: "p", id: "t1", known: keeper.view) else {
            Issue.record("a kept revision was read whole")
            return
        }
        #expect(view == "view" && keeper.asked == [before.revision])
        let (input, mask) = Self.drivingUpdate(1)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
        let after = try await fleet.revisionedTrip(provider: "p", id: "t1")
        #expect(after.revision != before.revision)
        let reopened = Fleet(store: try SQLiteTripStore(path: pair.path), clock: pair.clock.wallClock)
        for server in [fleet, reopened] {
            keeper.asked = []
            guard case .read(let trip) = try await server.trip(provider: "p", id: "t1", known: keeper.view) else {
                Issue.record("a stale revision was answered")
                return
            }
            #expect(trip.revision == after.revision && trip.value == after.value && keeper.asked == [after.revision])
        }
        await #expect(throws: StatusError.self) { try await fleet.trip(provider: "p", id: "t2", known: keeper.view) }
    }

    /// A trip read for a caller that keeps what it derives from it (a rider's view cache) is
    /// not kept by the store as well: at 50,000 trips keeping both pushed the views out of the
    /// cache pool (issue 30). A read for a caller that keeps nothing is kept, for the next.
    @Test func readsForACallerThatKeepsItsViewKeepNothingMore() async throws {
        let pair = try await Self.pairWithRoutedTrip()
        let (input, mask) = Self.drivingUpdate(1)
        _ = try await pair.sqlite.updateVehicle(provider: "p", id: "v1", input: input, mask: mask)
        // A server started afresh: nothing is cached.
        let budget = CacheBudget(megabytes: 16)
        let fleet = Fleet(store: try SQLiteTripStore(path: pair.path, cacheBudget: budget), clock: pair.clock.wallClock)
        let keeper = ViewKeeper(kept: Revision(row: 0))
        for _ in 0..<2 {
            guard case .read(let trip) = try await fleet.trip(provider: "p", id: "t1", known: keeper.view) else {
                Issue.record("a revision nobody kept was answered")
                return
            }
            #expect(trip.value.lastLocation?.location?.latitude == Self.road[1].latitude + 0.00001)
            #expect(budget.caches.bytes == 0, "the store kept the trip its caller keeps a view of")
        }
        let whole = try await fleet.revisionedTrip(provider: "p", id: "t1")
        #expect(budget.caches.bytes > 0, "a read for a caller that keeps nothing was not kept")
        let unkept: ((Revision) -> String?)? = nil
        guard case .read(let again) = try await fleet.trip(provider: "p", id: "t1", known: unkept),
            again.value == whole.value, again.revision == whole.revision
        else {
            Issue.record("a read without a keeper differs from a whole read")
            return
        }
    }

    /// Keeps a view for one revision of a trip, and records the revisions it is asked about.
    final class ViewKeeper {
        let kept: Revision
        var asked: [Revision] = []

        init(kept: Revision) { self.kept = kept }

        func view(_ revision: Revision) -> String? {
            asked.append(revision)
            return revision == kept ? "view" : nil
        }
    }

    /// A trip with no stops left whose first leg carries traffic cannot be read back from the
    /// vehicle (the vehicle has no waypoint to carry it): its row is written whole each time.
    @Test func tripWithoutStopsIsWrittenWhole() async throws {
        let pair = try Pair()
        var noDropoff = tripInput(vehicle: "v1", pickup: Self.road[0])
        noDropoff.dropoffPoint = nil
        try await pair.both { store in
            _ = try await store.createVehicle(provider: "p", id: "v1", input: Self.routed(traffic: true))
            _ = try await store.createTrip(provider: "p", id: "t1", input: noDropoff)
            for status in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff] {
                _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(status), mask: FieldMask("tripStatus"))
            }
        }
        var versions: [Int64] = []
        for step in 1..<6 {
            let (input, mask) = Self.drivingUpdate(step)
            try await pair.both { store in _ = try await store.updateVehicle(provider: "p", id: "v1", input: input, mask: mask) }
            try await pair.expectSameTrip("t1")
            let columns = try progressColumns(pair.path, "t1")
            #expect(!columns.fromVehicle)
            versions.append(columns.rowVersion)
        }
        #expect(try await pair.memory.trip(provider: "p", id: "t1").currentRouteSegmentTraffic != nil)
        #expect(Set(versions).count == versions.count)
    }
}

/// The trip row's version and mark, read straight from the file.
private func progressColumns(_ path: String, _ tripId: String) throws -> (rowVersion: Int64, fromVehicle: Bool) {
    let queue = try DatabaseQueue(path: path)
    let row = try queue.read { db in
        try Row.fetchOne(db, sql: "SELECT row_version, progress_from_vehicle FROM trips WHERE trip_id = ?", arguments: [tripId])
    }
    let found = try #require(row)
    return (found["row_version"], found["progress_from_vehicle"])
}
