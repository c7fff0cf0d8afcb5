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

func vehicleInput(state: VehicleState = .online, capacity: Int = 4, at location: LatLng? = nil) -> Vehicle {
    var input = Vehicle(name: "")
    input.vehicleState = state
    input.supportedTripTypes = [.exclusive, .shared]
    input.maximumCapacity = capacity
    input.vehicleType = VehicleType(category: .auto)
    input.lastLocation = location.map { VehicleLocation(location: $0) }
    return input
}

func tripInput(
    vehicle: String?, pickup: LatLng = LatLng(latitude: 37.40, longitude: -122.0),
    dropoff: LatLng = LatLng(latitude: 37.42, longitude: -122.0)
) -> Trip {
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

let fixedTime = Timestamp(secondsSince1970: 1_738_774_951)

/// The fleet over a store, on a fixed clock.
func fleet(_ store: any TripStore) -> Fleet { Fleet(store: store, clock: .fixed(fixedTime)) }

extension SQLiteTripStore {
    /// Appends events outside any resource write, in one transaction.
    func appendEvents(provider: String, _ events: [NewEvent]) async throws {
        try await write { tx in for event in events { try tx.appendEvent(provider: provider, event) } }
    }
}

@Suite struct SQLiteStoreTests {
    /// The SQLite store does everything every store must (TripStoreTesting's checks).
    @Test(arguments: StoreConformance.checks) func conformance(_ check: StoreConformance.Check) async throws {
        try await check.run { try SQLiteTripStore(path: try temporaryDatabasePath()) }
    }

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

        for filter in [
            EventFilter.vehicle(provider: "p", vehicleId: "v1"), .trip(provider: "p", tripId: "t1"),
            .trip(provider: "p", tripId: "t2"),
        ] {
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
            _ = try await fleet(store).createVehicle(provider: "p", id: "v1", input: vehicleInput())
            #expect(try store.appliedMigrations() == all)
            #expect(store.newlyAppliedMigrations == all)
        }
        let again = try SQLiteTripStore(path: path)
        #expect(again.newlyAppliedMigrations.isEmpty)
        #expect(try again.appliedMigrations() == all)
        #expect(try await fleet(again).vehicle(provider: "p", id: "v1").vehicleState == .online)
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
                    try db.execute(
                        sql: """
                            INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, body, tracking)
                            VALUES ('p', ?, 1, 'ONLINE', ?, ?, ?, ?)
                            """,
                        arguments: ["v\(i)", point.0, point.1, try JSONCoding.encodeText(vehicle), try JSONCoding.encodeText(RouteTracking())])
                }
            }
        }
        let store = try SQLiteTripStore(path: path)
        #expect(store.newlyAppliedMigrations.first == "0008_vehicle_position_cells")
        for (i, point) in points.enumerated() {
            let query = VehicleSearchQuery(
                pickupPoint: TerminalLocation(point: LatLng(latitude: point.0, longitude: point.1)),
                pickupRadiusMeters: 50, count: 10, minimumCapacity: 1, tripTypes: [.exclusive])
            let matches = try await fleet(store).searchVehicles(provider: "p", query: query)
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
                    try db.execute(
                        sql: """
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

/// The navigator's state and route survive reopening the database, and deleting the vehicle
/// removes them.
@Test func navigatorSurvivesReopen() async throws {
    let path = try temporaryDatabasePath()
    let first = try SQLiteTripStore(path: path)
    _ = try await fleet(first).createVehicle(provider: "p", id: "v1", input: vehicleInput())
    try await first.write { tx in
        guard var record = try tx.vehicleRecord(provider: "p", id: "v1") else { return }
        record.navigator = NavigatorRecord(state: [8], routeVersion: 5)
        try tx.setNavigatorRoute(provider: "p", vehicleId: "v1", [7])
        try tx.updateVehicle(provider: "p", id: "v1", record)
    }
    let second = try SQLiteTripStore(path: path)
    #expect(second.newlyAppliedMigrations.isEmpty)
    let (route, navigator) = try await second.read { reader in
        (try reader.navigatorRoute(provider: "p", vehicleId: "v1"), try reader.vehicleRecord(provider: "p", id: "v1")?.navigator)
    }
    #expect(route == [7] && navigator == NavigatorRecord(state: [8], routeVersion: 5))
    try await fleet(second).deleteVehicle(provider: "p", id: "v1")
    _ = try await fleet(second).createVehicle(provider: "p", id: "v1", input: vehicleInput())
    let (gone, goneNavigator) = try await second.read { reader in
        (try reader.navigatorRoute(provider: "p", vehicleId: "v1"), try reader.vehicleRecord(provider: "p", id: "v1")?.navigator)
    }
    #expect(gone == nil && goneNavigator == NavigatorRecord())
}

/// Stored styles survive reopening the database.
@Test func sqliteKeepsStyles() async throws {
    let path = try temporaryDatabasePath()
    _ = try await SQLiteTripStore(path: path).saveStyle(name: "brand", overrides: #"{"map":{}}"#, expectedVersion: 0, time: fixedTime)
    let record = try await SQLiteTripStore(path: path).styleRecord(name: "brand")
    #expect(record?.overrides == #"{"map":{}}"# && record?.version == 1)
}

func temporaryDatabasePath() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("test.sqlite").path
}
