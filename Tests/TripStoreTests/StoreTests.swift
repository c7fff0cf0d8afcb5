import Foundation
import Geo
import GRDB
import Testing
import TripModel
import TripStore

/// Every store implementation runs the same behaviour tests (STYLE: one body, every seam).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite
    var testDescription: String { rawValue }

    func make(clock: WallClock = .fixed(Timestamp(secondsSince1970: 1_738_774_951))) throws -> any TripStore {
        switch self {
        case .memory: return InMemoryTripStore(clock: clock)
        case .sqlite:
            return try SQLiteTripStore(path: temporaryDatabasePath(), clock: clock)
        }
    }
}

func vehicleInput(state: VehicleState = .online, capacity: Int = 4, at location: LatLng? = nil) -> Vehicle {
    var input = Vehicle(name: "")
    input.vehicleState = state
    input.supportedTripTypes = [.exclusive, .shared]
    input.maximumCapacity = capacity
    input.vehicleType = VehicleType(category: .auto)
    input.lastLocation = location.map { VehicleLocation(location: $0) }
    return input
}

func tripInput(vehicle: String?, pickup: LatLng = LatLng(latitude: 37.40, longitude: -122.0),
               dropoff: LatLng = LatLng(latitude: 37.42, longitude: -122.0)) -> Trip {
    var input = Trip(name: "")
    input.tripType = .exclusive
    input.pickupPoint = TerminalLocation(point: pickup)
    input.dropoffPoint = TerminalLocation(point: dropoff)
    input.vehicleId = vehicle
    return input
}

func statusChange(_ status: TripStatus) -> Trip {
    var input = Trip(name: "")
    input.tripStatus = status
    return input
}

func location(_ lat: Double, _ lng: Double) -> Vehicle {
    var input = Vehicle(name: "")
    input.lastLocation = VehicleLocation(location: LatLng(latitude: lat, longitude: lng))
    return input
}

@Suite struct StoreTests {
    /// Create, read and update a vehicle; the location is kept in its history.
    @Test(arguments: StoreKind.allCases) func vehicleLifecycle(_ kind: StoreKind) async throws {
        let store = try kind.make()
        let created = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        #expect(created.name == "providers/p/vehicles/v1")
        #expect(try await store.vehicle(provider: "p", id: "v1") == created)
        let moved = try await store.updateVehicle(provider: "p", id: "v1", input: location(37.39, -122), mask: FieldMask("lastLocation"))
        #expect(moved.lastLocation?.location == LatLng(latitude: 37.39, longitude: -122))
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10).count == 1)
        let duplicate = try await #require(throws: FleetError.self) {
            try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        }
        #expect(duplicate.code == .alreadyExists)
        let missing = try await #require(throws: FleetError.self) { try await store.vehicle(provider: "p", id: "nope") }
        #expect(missing.code == .notFound)
        let otherProvider = try await #require(throws: FleetError.self) { try await store.vehicle(provider: "q", id: "v1") }
        #expect(otherProvider.code == .notFound)
    }

    /// Assigning a trip makes it the vehicle's current trip, with its stops as waypoints;
    /// completing it removes both.
    @Test(arguments: StoreKind.allCases) func tripAssignment(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: LatLng(latitude: 37.39, longitude: -122)))
        let trip = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1"))
        #expect(trip.remainingWaypoints.map(\.waypointType) == [.pickup, .dropOff])
        #expect(trip.remainingWaypoints[0].eta != nil)
        var vehicle = try await store.vehicle(provider: "p", id: "v1")
        #expect(vehicle.currentTrips == ["t1"])
        #expect(vehicle.waypoints.count == 2)
        for status in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff, .complete] {
            _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(status), mask: FieldMask("tripStatus"))
        }
        let done = try await store.trip(provider: "p", id: "t1")
        #expect(done.tripStatus == .complete)
        #expect(done.remainingWaypoints.isEmpty && done.dropoffTime != nil && done.actualPickupPoint != nil)
        vehicle = try await store.vehicle(provider: "p", id: "v1")
        #expect(vehicle.currentTrips.isEmpty && vehicle.waypoints.isEmpty)
        let events = try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 100)
        let statuses = events.filter { $0.type == "didUpdateTripStatus" }.map(\.data)
        #expect(statuses.count == 5)
        #expect(statuses.last?.contains("\"tripStatus\":\"COMPLETE\"") == true)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id })
    }

    /// A refused write changes nothing: not the trip, not its vehicle, not the event log.
    @Test(arguments: StoreKind.allCases) func failedWritesChangeNothing(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1"))
        let tripBefore = try await store.trip(provider: "p", id: "t1")
        let vehicleBefore = try await store.vehicle(provider: "p", id: "v1")
        let eventsBefore = try await store.latestEventID()
        let illegal = try await #require(throws: FleetError.self) {
            try await store.updateTrip(provider: "p", id: "t1", input: statusChange(.complete), mask: FieldMask("tripStatus"))
        }
        #expect(illegal.code == .failedPrecondition)
        var reassign = Trip(name: "")
        reassign.vehicleId = "ghost"
        let ghost = try await #require(throws: FleetError.self) {
            try await store.updateTrip(provider: "p", id: "t1", input: reassign, mask: FieldMask("vehicleId"))
        }
        #expect(ghost.code == .notFound)
        await #expect(throws: FleetError.self) {
            try await store.updateVehicle(provider: "p", id: "v1", input: location(95, 0), mask: FieldMask("lastLocation"))
        }
        await #expect(throws: FleetError.self) {
            try await store.createTrip(provider: "p", id: "t2", input: tripInput(vehicle: "ghost"))
        }
        #expect(try await store.trip(provider: "p", id: "t1") == tripBefore)
        #expect(try await store.vehicle(provider: "p", id: "v1") == vehicleBefore)
        #expect(try await store.latestEventID() == eventsBefore)
        await #expect(throws: FleetError.self) { try await store.trip(provider: "p", id: "t2") }
    }

    /// Deletes refuse while trips are under way.
    @Test(arguments: StoreKind.allCases) func deletePreconditions(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        _ = try await store.createTrip(provider: "p", id: "t1", input: tripInput(vehicle: "v1"))
        let vehicleError = try await #require(throws: FleetError.self) { try await store.deleteVehicle(provider: "p", id: "v1") }
        #expect(vehicleError.code == .failedPrecondition)
        let tripError = try await #require(throws: FleetError.self) { try await store.deleteTrip(provider: "p", id: "t1") }
        #expect(tripError.code == .failedPrecondition)
        _ = try await store.updateTrip(provider: "p", id: "t1", input: statusChange(.canceled), mask: FieldMask("tripStatus"))
        try await store.deleteTrip(provider: "p", id: "t1")
        try await store.deleteVehicle(provider: "p", id: "v1")
        await #expect(throws: FleetError.self) { try await store.vehicle(provider: "p", id: "v1") }
        await #expect(throws: FleetError.self) { try await store.deleteTrip(provider: "p", id: "t1") }
    }

    /// Listing pages through every vehicle exactly once; a forged token is refused.
    @Test(arguments: StoreKind.allCases) func pagination(_ kind: StoreKind) async throws {
        let store = try kind.make()
        for i in 0..<5 { _ = try await store.createVehicle(provider: "p", id: "v\(i)", input: vehicleInput()) }
        _ = try await store.createVehicle(provider: "other", id: "x", input: vehicleInput())
        var seen: [String] = []
        var token: String?
        repeat {
            let page = try await store.listVehicles(provider: "p", page: try PageRequest(pageSize: 2, pageToken: token))
            seen += page.items.map(\.name)
            token = page.nextPageToken
        } while token != nil
        #expect(seen == (0..<5).map { "providers/p/vehicles/v\($0)" })
        await #expect(throws: FleetError.self) {
            try await store.listVehicles(provider: "p", page: try PageRequest(pageSize: 2, pageToken: "garbage!"))
        }
        #expect(throws: FleetError.self) { try PageRequest(pageSize: 5000) }
        let trips = try await store.searchTrips(provider: "p", query: TripSearchQuery(vehicleId: "v1", activeTripsOnly: true, page: PageRequest()))
        #expect(trips.items.isEmpty)
    }

    /// Search finds ONLINE vehicles near the pickup with seats, nearest first.
    @Test(arguments: StoreKind.allCases) func vehicleSearch(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "near", input: vehicleInput(at: LatLng(latitude: 37.401, longitude: -122)))
        _ = try await store.createVehicle(provider: "p", id: "nearer", input: vehicleInput(at: LatLng(latitude: 37.4001, longitude: -122)))
        _ = try await store.createVehicle(provider: "p", id: "far", input: vehicleInput(at: LatLng(latitude: 37.6, longitude: -122)))
        _ = try await store.createVehicle(provider: "p", id: "off", input: vehicleInput(state: .offline, at: LatLng(latitude: 37.4, longitude: -122)))
        _ = try await store.createVehicle(provider: "p", id: "small", input: vehicleInput(capacity: 1, at: LatLng(latitude: 37.4, longitude: -122)))
        let query = VehicleSearchQuery(pickupPoint: TerminalLocation(point: LatLng(latitude: 37.4, longitude: -122)),
                                       pickupRadiusMeters: 2_000, count: 10, minimumCapacity: 2, tripTypes: [.exclusive])
        let matches = try await store.searchVehicles(provider: "p", query: query)
        #expect(matches.map { ResourceName.lastComponent(of: $0.vehicle.name) } == ["nearer", "near"])
        #expect(matches[0].vehiclePickupStraightLineDistanceMeters == 11)
    }

    /// Search follows a vehicle as it moves (within its grid cell of the SQLite index, and
    /// from cell to cell) and as its state changes; a vehicle on a cell's edge is found too.
    @Test(arguments: StoreKind.allCases) func searchFollowsMovesAndStates(_ kind: StoreKind) async throws {
        let store = try kind.make()
        func found(near latitude: Double, radius: Int = 2_000) async throws -> [String] {
            let query = VehicleSearchQuery(pickupPoint: TerminalLocation(point: LatLng(latitude: latitude, longitude: -122)),
                                           pickupRadiusMeters: radius, count: 10, minimumCapacity: 1, tripTypes: [.exclusive])
            return try await store.searchVehicles(provider: "p", query: query).map { ResourceName.lastComponent(of: $0.vehicle.name) }
        }
        _ = try await store.createVehicle(provider: "p", id: "mover", input: vehicleInput(at: LatLng(latitude: 37.4, longitude: -122)))
        #expect(try await found(near: 37.4) == ["mover"])
        for step in 1...5 {
            _ = try await store.updateVehicle(provider: "p", id: "mover", input: location(37.45 + Double(step) * 1e-4, -122),
                                              mask: FieldMask("lastLocation"))
        }
        #expect(try await found(near: 37.4).isEmpty)
        #expect(try await found(near: 37.4505, radius: 100) == ["mover"])
        _ = try await store.updateVehicle(provider: "p", id: "mover", input: vehicleInput(state: .offline), mask: FieldMask("vehicleState"))
        #expect(try await found(near: 37.4505).isEmpty)
        var back = location(37.41, -122)
        back.vehicleState = .online
        _ = try await store.updateVehicle(provider: "p", id: "mover", input: back, mask: FieldMask("vehicleState,lastLocation"))
        #expect(try await found(near: 37.4505).isEmpty)
        #expect(try await found(near: 37.41, radius: 10) == ["mover"])
        #expect(try await found(near: 37.4099, radius: 20) == ["mover"])
    }

    /// A history read returns at most the 1,000 newest locations, oldest first.
    @Test(arguments: StoreKind.allCases) func boundedHistory(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        for i in 0..<1_105 {
            _ = try await store.updateVehicle(provider: "p", id: "v1", input: location(37 + Double(i) * 1e-5, -122), mask: FieldMask("lastLocation"))
        }
        func latitudes(_ steps: Range<Int>) -> [Double?] { steps.map { 37 + Double($0) * 1e-5 } }
        let history = try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 5_000)
        #expect(history.map(\.location?.latitude) == latitudes(105..<1_105))
        let newest = try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 3)
        #expect(newest.map(\.location?.latitude) == latitudes(1_102..<1_105))
    }

    /// A vehicle's history starts with the location it was created with, holds only its own
    /// locations, and starts again empty when the vehicle is deleted and created anew.
    @Test(arguments: StoreKind.allCases) func historyBelongsToTheVehicle(_ kind: StoreKind) async throws {
        let store = try kind.make()
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput(at: LatLng(latitude: 37.1, longitude: -122)))
        _ = try await store.createVehicle(provider: "p", id: "v2", input: vehicleInput())
        for i in 1...3 {
            _ = try await store.updateVehicle(provider: "p", id: "v2", input: location(38, -121), mask: FieldMask("lastLocation"))
            _ = try await store.updateVehicle(provider: "p", id: "v1", input: location(37.1 + Double(i) * 0.1, -122),
                                              mask: FieldMask("lastLocation"))
        }
        // Not a location update: nothing added.
        _ = try await store.updateVehicle(provider: "p", id: "v1", input: vehicleInput(state: .offline), mask: FieldMask("vehicleState"))
        let history = try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
        let expected: [Double?] = [37.1] + (1...3).map { 37.1 + Double($0) * 0.1 }
        #expect(history.map(\.location?.latitude) == expected)
        #expect(try await store.locationHistory(provider: "q", vehicleId: "v1", limit: 10).isEmpty)
        #expect(try await store.locationHistory(provider: "p", vehicleId: "nope", limit: 10).isEmpty)

        try await store.deleteVehicle(provider: "p", id: "v1")
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10).isEmpty)
        _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10).isEmpty)
        _ = try await store.updateVehicle(provider: "p", id: "v1", input: location(36, -122), mask: FieldMask("lastLocation"))
        let recreated = try await store.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
        #expect(recreated.map(\.location?.latitude) == [36])
        #expect(try await store.locationHistory(provider: "p", vehicleId: "v2", limit: 10).count == 3)
        // Still found several blocks of other events later: the SQLite store reads the log
        // back block by block from the newest.
        if let sqlite = store as? SQLiteTripStore {
            let time = Timestamp(secondsSince1970: 1_738_774_951)
            try await sqlite.appendEvents(provider: "p", (0..<3_000).map { _ in
                NewEvent(time: time, vehicleId: "v9", tripIds: [], type: "e", data: "{}")
            })
            #expect(try await store.locationHistory(provider: "p", vehicleId: "v2", limit: 10).count == 3)
        }
    }
}

@Suite struct SQLiteStoreTests {
    /// A vehicle's or a trip's events, read page by page from anywhere in a log of several
    /// thousand events, arrive whole, once each and in order (the SQLite indexes are ordered
    /// by blocks of 1,024 event ids: the pages and resume points here cross many blocks).
    @Test func audienceEventsAcrossBlocks() async throws {
        let store = try SQLiteTripStore(path: temporaryDatabasePath())
        let time = Timestamp(secondsSince1970: 1_738_774_951)
        var log: [NewEvent] = []
        for i in 0..<3_500 {
            let vehicle = ["v1", "v2", "v3", nil][i % 4]
            let trips = i % 7 == 0 ? ["t1", "t2"] : (i % 3 == 0 ? ["t2"] : [])
            log.append(NewEvent(time: time, vehicleId: vehicle, tripIds: trips, type: "e\(i)", data: "{}"))
        }
        for start in stride(from: 0, to: log.count, by: 500) {
            try await store.appendEvents(provider: "p", Array(log[start..<min(start + 500, log.count)]))
        }
        try await store.appendEvents(provider: "q", [NewEvent(time: time, vehicleId: "v1", tripIds: ["t1"], type: "other", data: "{}")])
        let everything = try await store.events(after: 0, filter: .all, limit: 10_000)
        #expect(everything.count == 3_501)

        for filter in [EventFilter.vehicle(provider: "p", vehicleId: "v1"), .trip(provider: "p", tripId: "t1"),
                       .trip(provider: "p", tripId: "t2")] {
            let expected = everything.filter { event in
                switch filter {
                case .vehicle(let provider, let id): return event.provider == provider && event.vehicleId == id
                case .trip(let provider, let id): return event.provider == provider && event.tripIds.contains(id)
                case .all: return true
                }
            }.map(\.id)
            #expect(expected.count > 400)
            #expect(try await store.events(after: 0, filter: filter, limit: 10_000).map(\.id) == expected)
            var paged: [Int64] = []
            var after: Int64 = 0
            while true {
                let page = try await store.events(after: after, filter: filter, limit: 97).map(\.id)
                if page.isEmpty { break }
                paged += page
                after = page.last!
            }
            #expect(paged == expected, "\(filter) read 97 at a time")
            let middle = expected[expected.count / 2]
            #expect(try await store.events(after: middle, filter: filter, limit: 10_000).map(\.id) == Array(expected.drop { $0 <= middle }))
            #expect(try await store.events(after: expected.last!, filter: filter, limit: 10).isEmpty)
        }
    }

    /// Migrations apply once: reopening the file applies nothing and keeps the data.
    @Test func reopen() async throws {
        let path = try temporaryDatabasePath()
        let all = try Migrations.files().map(\.name)
        #expect(all.first == "0001_fleet")
        do {
            let store = try SQLiteTripStore(path: path)
            _ = try await store.createVehicle(provider: "p", id: "v1", input: vehicleInput())
            #expect(try store.appliedMigrations() == all)
            #expect(store.newlyAppliedMigrations == all)
        }
        let again = try SQLiteTripStore(path: path)
        #expect(again.newlyAppliedMigrations.isEmpty)
        #expect(try again.appliedMigrations() == all)
        #expect(try await again.vehicle(provider: "p", id: "v1").vehicleState == .online)
        #expect(try again.integrityCheck() == "ok")
    }

    /// Vehicles stored before the position index held grid cells (0008) are found by
    /// search once it has filed them.
    @Test func positionCellMigrationFilesEveryVehicle() async throws {
        let path = try temporaryDatabasePath()
        let points = [(37.4, -122.0), (-33.8688, 151.2093), (0, 0), (-90, -180), (89.999, 179.999), (51.5, -0.0001)]
        do {
            let queue = try DatabaseQueue(path: path)
            try Migrations.migrator().migrate(queue, upTo: "0007_location_history_from_events")
            try await queue.write { db in
                for (i, point) in points.enumerated() {
                    var vehicle = vehicleInput(at: LatLng(latitude: point.0, longitude: point.1))
                    vehicle.name = "providers/p/vehicles/v\(i)"
                    vehicle.supportedTripTypes = [.exclusive]
                    try db.execute(sql: """
                        INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, body, tracking)
                        VALUES ('p', ?, 1, 'ONLINE', ?, ?, ?, ?)
                        """, arguments: ["v\(i)", point.0, point.1, try FleetJSON.encodeText(vehicle), try FleetJSON.encodeText(RouteTracking())])
                }
            }
        }
        let store = try SQLiteTripStore(path: path)
        #expect(store.newlyAppliedMigrations.first == "0008_vehicle_position_cells")
        for (i, point) in points.enumerated() {
            let query = VehicleSearchQuery(pickupPoint: TerminalLocation(point: LatLng(latitude: point.0, longitude: point.1)),
                                           pickupRadiusMeters: 50, count: 10, minimumCapacity: 1, tripTypes: [.exclusive])
            let matches = try await store.searchVehicles(provider: "p", query: query)
            #expect(matches.map { ResourceName.lastComponent(of: $0.vehicle.name) } == ["v\(i)"], "at \(point)")
        }
    }

    /// A log written under the old audience indexes (before 0005) is still read whole, per
    /// vehicle and per trip, once 0005 has rebuilt them ordered by block.
    @Test func eventIndexMigrationKeepsTheLog() async throws {
        let path = try temporaryDatabasePath()
        do {
            let queue = try DatabaseQueue(path: path)
            try Migrations.migrator().migrate(queue, upTo: "0004_location_sequence")
            try await queue.write { db in
                for i in 1...2_100 {
                    try db.execute(sql: """
                        INSERT INTO events (time_us, provider, vehicle_id, type, data, trip_ids) VALUES (?, 'p', ?, 'e', '{}', ?)
                        """, arguments: [i, i % 2 == 0 ? "v1" : "v2", i % 3 == 0 ? "t1" : ""])
                    if i % 3 == 0 { try db.execute(sql: "INSERT INTO event_trips VALUES ('p', 't1', ?)", arguments: [i]) }
                }
            }
        }
        let store = try SQLiteTripStore(path: path)
        let later = try Migrations.files().map(\.name).drop { $0 != "0005_event_index_locality" }
        #expect(store.newlyAppliedMigrations == Array(later))
        let byVehicle = try await store.events(after: 1_000, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10_000)
        #expect(byVehicle.map(\.id) == Array(stride(from: 1_002, through: 2_100, by: 2)))
        let byTrip = try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 10_000)
        #expect(byTrip.map(\.id) == Array(stride(from: 3, through: 2_100, by: 3)))
        #expect(byTrip.allSatisfy { $0.tripIds == ["t1"] })
        #expect(try store.integrityCheck() == "ok")
    }

    /// The migrations ship with the module, whatever the working directory.
    @Test func migrationsAreResources() throws {
        let files = try Migrations.files()
        #expect(files.first?.name == "0001_fleet")
        #expect(files.first?.sql.contains("CREATE TABLE events") == true)
    }
}

func temporaryDatabasePath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("test.sqlite").path
}
