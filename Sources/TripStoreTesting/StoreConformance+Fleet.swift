// The store as Fleet drives it: the API's writes and reads through the real write flows.

import Fleet
import Geo
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let fleetChecks: [Check] = [
        Check("vehicle lifecycle", vehicleLifecycle),
        Check("trip assignment", tripAssignment),
        Check("failed writes change nothing", failedWritesChangeNothing),
        Check("delete preconditions", deletePreconditions),
        Check("pagination", pagination),
        Check("vehicle search", vehicleSearch),
        Check("search follows moves and states", searchFollowsMovesAndStates),
        Check("bounded history", boundedHistory),
        Check("history belongs to the vehicle", historyBelongsToTheVehicle),
        Check("navigation UI settings through the fleet", navigationUISettings),
        Check("simultaneous updates all commit", simultaneousUpdatesAllCommit),
    ]

    /// Create, read and update a vehicle; the location is kept in its history.
    static func vehicleLifecycle(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        let created = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        #expect(created.name == "providers/p/vehicles/v1")
        #expect(try await fleet.vehicle(provider: "p", id: "v1") == created)
        let moved = try await fleet.updateVehicle(provider: "p", id: "v1", input: Inputs.location(37.39, -122), mask: FieldMask("lastLocation"))
        #expect(moved.lastLocation?.location == LatLng(latitude: 37.39, longitude: -122))
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10).count == 1)
        let duplicate = try await #require(throws: StatusError.self) {
            try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        }
        #expect(duplicate.code == .alreadyExists)
        let missing = try await #require(throws: StatusError.self) { try await fleet.vehicle(provider: "p", id: "nope") }
        #expect(missing.code == .notFound)
        let otherProvider = try await #require(throws: StatusError.self) { try await fleet.vehicle(provider: "q", id: "v1") }
        #expect(otherProvider.code == .notFound)
    }

    /// Assigning a trip makes it the vehicle's current trip, with its stops as waypoints;
    /// completing it removes both. Its events are read back in order.
    static func tripAssignment(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle(at: LatLng(latitude: 37.39, longitude: -122)))
        let trip = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1"))
        #expect(trip.remainingWaypoints.map(\.waypointType) == [.pickup, .dropOff])
        #expect(trip.remainingWaypoints.first?.eta != nil)
        var vehicle = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(vehicle.currentTrips == ["t1"])
        #expect(vehicle.waypoints.count == 2)
        for status in [TripStatus.enrouteToPickup, .arrivedAtPickup, .enrouteToDropoff, .complete] {
            _ = try await fleet.updateTrip(provider: "p", id: "t1", input: Inputs.status(status), mask: FieldMask("tripStatus"))
        }
        let done = try await fleet.trip(provider: "p", id: "t1")
        #expect(done.tripStatus == .complete)
        #expect(done.remainingWaypoints.isEmpty && done.dropoffTime != nil && done.actualPickupPoint != nil)
        vehicle = try await fleet.vehicle(provider: "p", id: "v1")
        #expect(vehicle.currentTrips.isEmpty && vehicle.waypoints.isEmpty)
        let events = try await fleet.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 100)
        let statuses = events.filter { $0.type == "didUpdateTripStatus" }.map(\.data)
        #expect(statuses.count == 5)
        #expect(statuses.last?.contains("\"tripStatus\":\"COMPLETE\"") == true)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id })
    }

    /// A refused write changes nothing: not the trip, not its vehicle, not the event log.
    static func failedWritesChangeNothing(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1"))
        let tripBefore = try await fleet.trip(provider: "p", id: "t1")
        let vehicleBefore = try await fleet.vehicle(provider: "p", id: "v1")
        let eventsBefore = try await fleet.latestEventID()
        let illegal = try await #require(throws: StatusError.self) {
            try await fleet.updateTrip(provider: "p", id: "t1", input: Inputs.status(.complete), mask: FieldMask("tripStatus"))
        }
        #expect(illegal.code == .failedPrecondition)
        var reassign = Trip(name: "")
        reassign.vehicleId = "ghost"
        let ghost = try await #require(throws: StatusError.self) {
            try await fleet.updateTrip(provider: "p", id: "t1", input: reassign, mask: FieldMask("vehicleId"))
        }
        #expect(ghost.code == .notFound)
        await #expect(throws: StatusError.self) {
            try await fleet.updateVehicle(provider: "p", id: "v1", input: Inputs.location(95, 0), mask: FieldMask("lastLocation"))
        }
        await #expect(throws: StatusError.self) {
            try await fleet.createTrip(provider: "p", id: "t2", input: Inputs.trip(vehicle: "ghost"))
        }
        #expect(try await fleet.trip(provider: "p", id: "t1") == tripBefore)
        #expect(try await fleet.vehicle(provider: "p", id: "v1") == vehicleBefore)
        #expect(try await fleet.latestEventID() == eventsBefore)
        await #expect(throws: StatusError.self) { try await fleet.trip(provider: "p", id: "t2") }
    }

    /// Deletes refuse while trips are under way.
    static func deletePreconditions(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        _ = try await fleet.createTrip(provider: "p", id: "t1", input: Inputs.trip(vehicle: "v1"))
        let vehicleError = try await #require(throws: StatusError.self) { try await fleet.deleteVehicle(provider: "p", id: "v1") }
        #expect(vehicleError.code == .failedPrecondition)
        let tripError = try await #require(throws: StatusError.self) { try await fleet.deleteTrip(provider: "p", id: "t1") }
        #expect(tripError.code == .failedPrecondition)
        _ = try await fleet.updateTrip(provider: "p", id: "t1", input: Inputs.status(.canceled), mask: FieldMask("tripStatus"))
        try await fleet.deleteTrip(provider: "p", id: "t1")
        try await fleet.deleteVehicle(provider: "p", id: "v1")
        await #expect(throws: StatusError.self) { try await fleet.vehicle(provider: "p", id: "v1") }
        await #expect(throws: StatusError.self) { try await fleet.deleteTrip(provider: "p", id: "t1") }
    }

    /// Listing pages through every vehicle exactly once; a forged token is refused.
    static func pagination(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        for i in 0..<5 { _ = try await fleet.createVehicle(provider: "p", id: "v\(i)", input: Inputs.vehicle()) }
        _ = try await fleet.createVehicle(provider: "other", id: "x", input: Inputs.vehicle())
        var seen: [String] = []
        var token: String?
        repeat {
            let page = try await fleet.listVehicles(provider: "p", page: try PageRequest(pageSize: 2, pageToken: token))
            seen += page.items.map(\.name)
            token = page.nextPageToken
        } while token != nil
        #expect(seen == (0..<5).map { "providers/p/vehicles/v\($0)" })
        await #expect(throws: StatusError.self) {
            try await fleet.listVehicles(provider: "p", page: try PageRequest(pageSize: 2, pageToken: "garbage!"))
        }
        #expect(throws: StatusError.self) { try PageRequest(pageSize: 5000) }
        let query = TripSearchQuery(vehicleId: "v1", activeTripsOnly: true, page: try PageRequest())
        #expect(try await fleet.searchTrips(provider: "p", query: query).items.isEmpty)
    }

    /// Search finds ONLINE vehicles near the pickup with seats, nearest first.
    static func vehicleSearch(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        let places: [(String, VehicleState, Int, Double)] = [
            ("near", .online, 4, 37.401), ("nearer", .online, 4, 37.4001), ("far", .online, 4, 37.6), ("off", .offline, 4, 37.4),
            ("small", .online, 1, 37.4),
        ]
        for (id, state, capacity, latitude) in places {
            let input = Inputs.vehicle(state: state, capacity: capacity, at: LatLng(latitude: latitude, longitude: -122))
            _ = try await fleet.createVehicle(provider: "p", id: id, input: input)
        }
        let query = VehicleSearchQuery(
            pickupPoint: TerminalLocation(point: LatLng(latitude: 37.4, longitude: -122)),
            pickupRadiusMeters: 2_000, count: 10, minimumCapacity: 2, tripTypes: [.exclusive])
        let matches = try await fleet.searchVehicles(provider: "p", query: query)
        #expect(matches.map { ResourceName.lastComponent(of: $0.vehicle.name) } == ["nearer", "near"])
        #expect(matches.first?.vehiclePickupStraightLineDistanceMeters == 11)
    }

    /// Search follows a vehicle as it moves (within a store's spatial index cell and from
    /// cell to cell) and as its state changes; a vehicle on a cell's edge is found too.
    static func searchFollowsMovesAndStates(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        func found(near latitude: Double, radius: Int = 2_000) async throws -> [String] {
            let query = VehicleSearchQuery(
                pickupPoint: TerminalLocation(point: LatLng(latitude: latitude, longitude: -122)),
                pickupRadiusMeters: radius, count: 10, minimumCapacity: 1, tripTypes: [.exclusive])
            return try await fleet.searchVehicles(provider: "p", query: query).map { ResourceName.lastComponent(of: $0.vehicle.name) }
        }
        _ = try await fleet.createVehicle(provider: "p", id: "mover", input: Inputs.vehicle(at: LatLng(latitude: 37.4, longitude: -122)))
        #expect(try await found(near: 37.4) == ["mover"])
        for step in 1...5 {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "mover", input: Inputs.location(37.45 + Double(step) * 1e-4, -122),
                mask: FieldMask("lastLocation"))
        }
        #expect(try await found(near: 37.4).isEmpty)
        #expect(try await found(near: 37.4505, radius: 100) == ["mover"])
        _ = try await fleet.updateVehicle(provider: "p", id: "mover", input: Inputs.vehicle(state: .offline), mask: FieldMask("vehicleState"))
        #expect(try await found(near: 37.4505).isEmpty)
        var back = Inputs.location(37.41, -122)
        back.vehicleState = .online
        _ = try await fleet.updateVehicle(provider: "p", id: "mover", input: back, mask: FieldMask("vehicleState,lastLocation"))
        #expect(try await found(near: 37.4505).isEmpty)
        #expect(try await found(near: 37.41, radius: 10) == ["mover"])
        #expect(try await found(near: 37.4099, radius: 20) == ["mover"])
    }

    /// A history read returns at most the 1,000 newest locations, oldest first.
    static func boundedHistory(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        for i in 0..<1_105 {
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(37 + Double(i) * 1e-5, -122),
                mask: FieldMask("lastLocation"))
        }
        func latitudes(_ steps: Range<Int>) -> [Double?] { steps.map { 37 + Double($0) * 1e-5 } }
        let history = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 5_000)
        #expect(history.map(\.location?.latitude) == latitudes(105..<1_105))
        let newest = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 3)
        #expect(newest.map(\.location?.latitude) == latitudes(1_102..<1_105))
    }

    /// A vehicle's history starts with the location it was created with, holds only its own
    /// locations, and starts again empty when the vehicle is deleted and created anew; it is
    /// still found behind thousands of other events.
    static func historyBelongsToTheVehicle(_ make: Factory) async throws {
        let store = try await make()
        let fleet = Inputs.fleet(store)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle(at: LatLng(latitude: 37.1, longitude: -122)))
        _ = try await fleet.createVehicle(provider: "p", id: "v2", input: Inputs.vehicle())
        for i in 1...3 {
            _ = try await fleet.updateVehicle(provider: "p", id: "v2", input: Inputs.location(38, -121), mask: FieldMask("lastLocation"))
            _ = try await fleet.updateVehicle(
                provider: "p", id: "v1", input: Inputs.location(37.1 + Double(i) * 0.1, -122),
                mask: FieldMask("lastLocation"))
        }
        // Not a location update: nothing added.
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: Inputs.vehicle(state: .offline), mask: FieldMask("vehicleState"))
        let history = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
        let expected: [Double?] = [37.1] + (1...3).map { 37.1 + Double($0) * 0.1 }
        #expect(history.map(\.location?.latitude) == expected)
        #expect(try await fleet.locationHistory(provider: "q", vehicleId: "v1", limit: 10).isEmpty)
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "nope", limit: 10).isEmpty)

        try await fleet.deleteVehicle(provider: "p", id: "v1")
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10).isEmpty)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10).isEmpty)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: Inputs.location(36, -122), mask: FieldMask("lastLocation"))
        let recreated = try await fleet.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
        #expect(recreated.map(\.location?.latitude) == [36])
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v2", limit: 10).count == 3)
        // Still found several thousand other events later (a store may read the log back in
        // blocks from the newest).
        try await store.write { tx in
            for _ in 0..<3_000 { try tx.appendEvent(provider: "p", Inputs.event("e", vehicle: "v9")) }
        }
        #expect(try await fleet.locationHistory(provider: "p", vehicleId: "v2", limit: 10).count == 3)
    }

    /// The driver screen's settings as the API changes them: a change is kept with a new
    /// version and logged on the vehicle's stream only; a refused body and a change that
    /// changes nothing write nothing; the settings belong to one vehicle of one provider.
    static func navigationUISettings(_ make: Factory) async throws {
        let store = try await make()
        let fleet = Inputs.fleet(store)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: Inputs.vehicle())
        _ = try await fleet.createVehicle(provider: "q", id: "v1", input: Inputs.vehicle())
        #expect(try await fleet.navigationUISettings(provider: "p", vehicleId: "v1") == VehicleNavigationUISettings())
        let changed = try await fleet.updateNavigationUISettings(
            provider: "p", vehicleId: "v1", json: Array(#"{"compassButton": true, "alternateRoutesStrategy": "one"}"#.utf8))
        #expect(changed.settings.compassButton && changed.settings.alternateRoutesStrategy == .one && changed.version > 0)
        #expect(try await fleet.navigationUISettings(provider: "p", vehicleId: "v1") == changed)
        #expect(try await fleet.navigationUISettings(provider: "q", vehicleId: "v1") == VehicleNavigationUISettings())
        let logged = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10)
        #expect(logged.map(\.type) == ["didUpdateNavigationUISettings"])
        #expect(logged.allSatisfy { $0.tripIds.isEmpty })

        let latest = try await store.latestEventID()
        await #expect(throws: StatusError.self) {
            _ = try await fleet.updateNavigationUISettings(
                provider: "p", vehicleId: "v1", json: Array(#"{"myLocationButton": true, "compassButton": "yes"}"#.utf8))
        }
        let same = try await fleet.updateNavigationUISettings(provider: "p", vehicleId: "v1", json: Array(#"{"compassButton": true}"#.utf8))
        #expect(same == changed)
        #expect(try await store.latestEventID() == latest)

        let reset = try await fleet.resetNavigationUISettings(provider: "p", vehicleId: "v1")
        #expect(reset.settings == VehicleNavigationUISettings().settings && reset.version > changed.version)
        #expect(try await fleet.navigationUISettings(provider: "p", vehicleId: "v1") == reset)
        await #expect(throws: StatusError.self) { _ = try await fleet.navigationUISettings(provider: "p", vehicleId: "nope") }
        await #expect(throws: StatusError.self) { _ = try await fleet.resetNavigationUISettings(provider: "p", vehicleId: "nope") }
    }

    /// Many location updates at once all commit, in full: every location is in the history
    /// and has its event.
    static func simultaneousUpdatesAllCommit(_ make: Factory) async throws {
        let fleet = Inputs.fleet(try await make())
        for v in 0..<4 { _ = try await fleet.createVehicle(provider: "p", id: "v\(v)", input: Inputs.vehicle()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<80 {
                group.addTask {
                    _ = try await fleet.updateVehicle(
                        provider: "p", id: "v\(i % 4)", input: Inputs.location(37 + Double(i) * 1e-4, -122),
                        mask: FieldMask("lastLocation"))
                }
            }
            try await group.waitForAll()
        }
        for v in 0..<4 {
            let history = try await fleet.locationHistory(provider: "p", vehicleId: "v\(v)", limit: 100)
            #expect(history.count == 20)
            let events = try await fleet.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v\(v)"), limit: 100)
            #expect(events.filter { $0.type == "didUpdateVehicleLocation" }.count == 20)
        }
    }
}
