import Fleet
import GRDB
import SQLiteStore
import Testing
import TripModel

/// A listing's `totalSize` is kept between listings (migration 0019) and is never stale: a
/// vehicle that comes, goes or changes what the filter reads changes the next count, from
/// this server or from another process on the same file; a location update does not count.
@Suite struct ListingCountTests {
    static let blackOnly: VehicleListQuery = {
        var query = VehicleListQuery(vehicleTypeCategories: [.auto], pageSize: 2)
        query.filter = #"attributes.color = "black""#
        return query
    }()

    static func total(_ fleet: Fleet) async throws -> Int {
        try await fleet.listVehicles(provider: "p", query: blackOnly).totalSize ?? -1
    }

    static func create(_ fleet: Fleet, _ id: String, color: String) async throws {
        var input = vehicleInput()
        input.attributes = [Attribute(key: "color", stringValue: color)]
        _ = try await fleet.createVehicle(provider: "p", id: id, input: input)
    }

    @Test func countFollowsEveryChange() async throws {
        let path = try temporaryDatabasePath()
        let server = fleet(try SQLiteTripStore(path: path))
        for (index, color) in ["black", "black", "white", "black"].enumerated() {
            try await Self.create(server, "v\(index)", color: color)
        }
        #expect(try await Self.total(server) == 3)
        #expect(try await Self.total(server) == 3)

        // A location update leaves the count as it was.
        _ = try await server.updateVehicle(provider: "p", id: "v0", input: location(37.5, -122), mask: FieldMask("lastLocation"))
        #expect(try await Self.total(server) == 3)

        // What the filter reads changes: one fewer.
        _ = try await server.updateVehicleAttributes(provider: "p", id: "v1", attributes: [Attribute(key: "color", stringValue: "red")])
        #expect(try await Self.total(server) == 2)

        // A vehicle comes and one goes.
        try await Self.create(server, "v9", color: "black")
        #expect(try await Self.total(server) == 3)
        try await server.deleteVehicle(provider: "p", id: "v0")
        #expect(try await Self.total(server) == 2)

        // Another process on the same file (a second store) changes a vehicle: this one sees it.
        let other = fleet(try SQLiteTripStore(path: path))
        _ = try await other.updateVehicleAttributes(provider: "p", id: "v2", attributes: [Attribute(key: "color", stringValue: "black")])
        #expect(try await Self.total(server) == 3)

        // A state filter is kept apart from the attribute filter.
        var offline = vehicleInput(state: .offline)
        offline.attributes = [Attribute(key: "color", stringValue: "black")]
        _ = try await server.createVehicle(provider: "p", id: "v10", input: offline)
        var online = Self.blackOnly
        online.vehicleState = .online
        #expect(try await server.listVehicles(provider: "p", query: online).totalSize == 3)
        #expect(try await Self.total(server) == 4)
    }
    /// A vehicle that drives into another grid cell rewrites its cell, not its listing: the
    /// listing's version (which makes every server count again) stays; a state change moves it.
    @Test func movingToAnotherCellLeavesTheListingVersion() async throws {
        let path = try temporaryDatabasePath()
        let server = fleet(try SQLiteTripStore(path: path))
        try await Self.create(server, "v0", color: "black")
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let inspector = try DatabaseQueue(path: path, configuration: configuration)
        func version() async throws -> Int? { try await inspector.read { db in try Int.fetchOne(db, sql: "SELECT version FROM listing_version") } }
        func cell() async throws -> [Int?] {
            try await inspector.read { db in
                try Row.fetchOne(db, sql: "SELECT latitude_cell, longitude_cell FROM vehicles WHERE vehicle_id = 'v0'").map { [$0[0], $0[1]] } ?? []
            }
        }
        let before = try await version()
        _ = try await server.updateVehicle(provider: "p", id: "v0", input: location(37.5, -122), mask: FieldMask("lastLocation"))
        let first = try await cell()
        _ = try await server.updateVehicle(provider: "p", id: "v0", input: location(38.5, -121), mask: FieldMask("lastLocation"))
        #expect(try await cell() != first)
        #expect(try await version() == before)
        _ = try await server.updateVehicle(provider: "p", id: "v0", input: vehicleInput(state: .offline), mask: FieldMask("vehicleState"))
        #expect(try await version() != before)
        #expect(try await Self.total(server) == 1)
    }
}
