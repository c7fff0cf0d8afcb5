import Fleet
import Foundation
import Geo
import PostgresStore
import StoreVariants
import Testing
import TripModel
import TripStore
import TripStoreTesting

let fixedTime = Timestamp(secondsSince1970: 1_738_774_951)

/// Two store objects on one new schema: two server processes sharing a database.
func twoProcesses() async throws -> (PostgresTripStore, PostgresTripStore) {
    let location = try TestStores.requirePostgres().inSchema(TestStores.freshSchema())
    async let first = PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
    async let second = PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
    return try await (first, second)
}

func locationUpdate(_ latitude: Double, _ longitude: Double = -122) -> Vehicle {
    var input = Vehicle(name: "")
    input.lastLocation = VehicleLocation(location: LatLng(latitude: latitude, longitude: longitude))
    return input
}

/// An exclusive trip for `vehicleId`, picking up and dropping off near the test vehicles.
func exclusiveTrip(vehicleId: String) -> Trip {
    var trip = Trip(name: "")
    trip.tripType = .exclusive
    trip.vehicleId = vehicleId
    trip.pickupPoint = TerminalLocation(point: LatLng(latitude: 37.40, longitude: -122))
    trip.dropoffPoint = TerminalLocation(point: LatLng(latitude: 37.42, longitude: -122))
    return trip
}

func onlineVehicle() -> Vehicle {
    var input = Vehicle(name: "")
    input.vehicleState = .online
    input.supportedTripTypes = [.exclusive, .shared]
    input.maximumCapacity = 4
    input.vehicleType = VehicleType(category: .auto)
    return input
}

@Suite struct PostgresStoreTests {
    /// The PostgreSQL store does everything every store must (TripStoreTesting's checks).
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason), arguments: StoreConformance.checks)
    func conformance(_ check: StoreConformance.Check) async throws {
        try await check.run { try await TestStores.make(.postgres) }
    }

    /// Two processes starting at once on an empty schema: one applies the migrations, the
    /// other finds them applied (the advisory lock), and both work.
    @Test func concurrentStartMigratesOnce() async throws {
        let (first, second) = try await twoProcesses()
        let all = try PostgresMigrations.files().map(\.name)
        #expect(first.migrations.applied == all && second.migrations.applied == all)
        #expect((first.migrations.appliedNow + second.migrations.appliedNow).sorted() == all)
        let reopened = try await PostgresTripStore(location: first.location, maximumConnections: 2, liveness: .patient, logger: TestStores.logger)
        #expect(reopened.migrations.appliedNow.isEmpty)
    }

    /// A write through one process is read through the other at once, every time: its
    /// decoded-row caches never serve the version they held before.
    @Test func writesElsewhereAreSeenAtOnce() async throws {
        let (a, b) = try await twoProcesses()
        let fleetA = Fleet(store: a, clock: .fixed(fixedTime))
        let fleetB = Fleet(store: b, clock: .fixed(fixedTime))
        _ = try await fleetA.createVehicle(provider: "p", id: "v1", input: onlineVehicle())
        _ = try await fleetA.createTrip(provider: "p", id: "t1", input: exclusiveTrip(vehicleId: "v1"))
        for step in 0..<6 {
            let writer = step.isMultiple(of: 2) ? fleetA : fleetB
            let reader = step.isMultiple(of: 2) ? fleetB : fleetA
            let latitude = 37.35 + Double(step) * 0.001
            _ = try await writer.updateVehicle(provider: "p", id: "v1", input: locationUpdate(latitude), mask: FieldMask("lastLocation"))
            #expect(try await reader.vehicle(provider: "p", id: "v1").lastLocation?.location?.latitude == latitude)
            let view = try await reader.trip(provider: "p", id: "t1")
            #expect(view.lastLocation?.location?.latitude == latitude, "step \(step)")
            #expect(try await a.revisionedTrip(provider: "p", id: "t1")?.revision == b.revisionedTrip(provider: "p", id: "t1")?.revision)
        }
        let history = try await fleetB.locationHistory(provider: "p", vehicleId: "v1", limit: 10)
        #expect(history.count == 6)
    }

    /// Many riders reading at once (their reads share statements) each get their own trip,
    /// or NOT_FOUND for one that does not exist; and a write through the other process is in
    /// every read that starts after it was acknowledged.
    @Test func concurrentReadsAnswerEachTheirOwnTrip() async throws {
        let (a, b) = try await twoProcesses()
        let fleetA = Fleet(store: a, clock: .fixed(fixedTime))
        let fleetB = Fleet(store: b, clock: .fixed(fixedTime))
        let trips = 5
        for index in 0..<trips {
            _ = try await fleetA.createVehicle(provider: "p", id: "v\(index)", input: onlineVehicle())
            _ = try await fleetA.createTrip(provider: "p", id: "t\(index)", input: exclusiveTrip(vehicleId: "v\(index)"))
        }
        for round in 0..<3 {
            let latitude = 37.35 + Double(round) * 0.001
            for index in 0..<trips {
                let update = locationUpdate(latitude + Double(index) * 0.0001)
                _ = try await fleetA.updateVehicle(provider: "p", id: "v\(index)", input: update, mask: FieldMask("lastLocation"))
            }
            // Each trip's expected latitude, or nil for the missing trip (index == trips).
            let answers = try await withThrowingTaskGroup(of: (Int, Double?, Double?).self) { group in
                for reader in 0..<200 {
                    let index = reader % (trips + 1)
                    group.addTask {
                        guard let found = try await b.revisionedTrip(provider: "p", id: "t\(index)") else { return (index, nil, nil) }
                        #expect(found.value.vehicleId == "v\(index)")
                        return (index, found.value.lastLocation?.location?.latitude, latitude + Double(index) * 0.0001)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 200)
            for (index, seen, expected) in answers {
                if index == trips {
                    #expect(seen == nil, "t\(index) does not exist")
                } else {
                    #expect(seen == expected, "round \(round), t\(index)")
                }
            }
            #expect(try await fleetB.trip(provider: "p", id: "t0").lastLocation?.location?.latitude == latitude)
        }
    }

    /// Two processes updating one vehicle at the same moment lose nothing: each update reads
    /// the one committed before it (a count kept in the navigator state), whichever process.
    @Test func simultaneousWritesOfOneVehicleFromTwoProcesses() async throws {
        let (a, b) = try await twoProcesses()
        let record = VehicleRecord(
            vehicle: try Vehicle.created(from: onlineVehicle(), provider: "p", id: "v1", now: fixedTime), tracking: RouteTracking())
        try await a.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<80 {
                let store: PostgresTripStore = i.isMultiple(of: 2) ? a : b
                group.addTask {
                    try await store.write { tx in try Self.countOnVehicle(tx) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await b.read { try $0.vehicleRecord(provider: "p", id: "v1")?.navigator.state } == [80])
        let events = try await a.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 200)
        #expect(events.map(\.data) == (1...80).map { "{\"count\":\($0)}" })
    }

    /// One counted write of vehicle `v1`: reads its count (kept in its navigator state), adds
    /// one, saves it and logs it as an event, so a lost or reordered write shows.
    static func countOnVehicle(_ tx: any StoreTransaction, id: String = "v1") throws {
        guard var current = try tx.vehicleRecord(provider: "p", id: id) else { return }
        let count = (current.navigator.state?.first ?? 0) + 1
        current.navigator.state = [count]
        try tx.updateVehicle(provider: "p", id: id, current)
        tx.appendEventForTest(provider: "p", count: count, vehicleId: id)
    }

    /// Writes that name the vehicle they read first (locked ahead, several in one statement)
    /// lose nothing and keep each vehicle's order, while another process locks the same
    /// vehicles: a vehicle it holds is left to the write's own read, which runs it again later.
    /// A named vehicle that does not exist reads as absent, as without the hint.
    @Test func writesThatNameTheirVehicleLoseNothing() async throws {
        let (a, b) = try await twoProcesses()
        let ids = ["v1", "v2", "v3", "v4"]
        // Vehicle k counts from 50 k: a write given another vehicle's row counts wrong.
        for (k, id) in ids.enumerated() {
            let vehicle = try Vehicle.created(from: onlineVehicle(), provider: "p", id: id, now: fixedTime)
            let record = VehicleRecord(vehicle: vehicle, tracking: RouteTracking(), navigator: NavigatorRecord(state: [UInt8(50 * k)]))
            try await a.write { tx in try tx.insertVehicle(provider: "p", id: id, record) }
        }
        // Ten waves; in each, vehicle k is written k + 1 times, interleaved, through both
        // processes (so the rows' versions differ, and each process's cache lags the other's
        // writes), and one write names a vehicle that does not exist.
        var absentReads = 0
        for _ in 0..<10 {
            let writes = (0..<4).flatMap { round in ids.indices.filter { $0 + round >= 3 }.map { ids[$0] } }
            absentReads += try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, id) in writes.enumerated() {
                    let store = index.isMultiple(of: 2) ? a : b
                    group.addTask {
                        try await store.write(readingVehicle: VehicleKey(provider: "p", id: id)) { tx in try Self.countOnVehicle(tx, id: id) }
                        return 0
                    }
                }
                group.addTask {
                    try await b.write(readingVehicle: VehicleKey(provider: "p", id: "absent")) { tx in
                        try tx.vehicleRecord(provider: "p", id: "absent") == nil ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(absentReads == 10)
        for (k, id) in ids.enumerated() {
            let first = 50 * k + 1
            let last = 50 * k + 10 * (k + 1)
            #expect(try await b.read { try $0.vehicleRecord(provider: "p", id: id)?.navigator.state } == [UInt8(last)])
            let events = try await a.events(after: 0, filter: .vehicle(provider: "p", vehicleId: id), limit: 200)
            #expect(events.map(\.data) == (first...last).map { "{\"count\":\($0)}" }, "vehicle \(id)")
        }
    }

    /// A burst of writes of one vehicle in one process, among other writes (many share a
    /// transaction), loses nothing: each update reads the one before it, and the events are
    /// logged in that order.
    @Test func burstOfWritesOfOneVehicleInOneProcess() async throws {
        let (a, _) = try await twoProcesses()
        let record = VehicleRecord(
            vehicle: try Vehicle.created(from: onlineVehicle(), provider: "p", id: "v1", now: fixedTime), tracking: RouteTracking())
        try await a.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<120 {
                let id = index.isMultiple(of: 3) ? "v1" : "other-\(index)"
                group.addTask {
                    try await a.write { tx in
                        guard id == "v1" else {
                            let vehicle = try Vehicle.created(from: onlineVehicle(), provider: "p", id: id, now: fixedTime)
                            return try tx.insertVehicle(provider: "p", id: id, VehicleRecord(vehicle: vehicle, tracking: RouteTracking()))
                        }
                        try Self.countOnVehicle(tx)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await a.read { try $0.vehicleRecord(provider: "p", id: "v1")?.navigator.state } == [40])
        let events = try await a.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 200)
        #expect(events.map(\.data) == (1...40).map { "{\"count\":\($0)}" })
        #expect(try await a.listVehicles(provider: "p", page: PageRequest(pageSize: 200)).items.count == 81)
    }

    /// Event ids are in commit order across processes: a reader that follows the log while
    /// two processes write never skips an event that commits after a higher-numbered one.
    @Test func followersNeverSkipEventsAcrossProcesses() async throws {
        let (a, b) = try await twoProcesses()
        let writes = 120
        let follower = Task {
            var seen: [StoredEvent] = []
            var idleRounds = 0
            while idleRounds < 200 {
                let page = try await a.events(after: seen.last?.id ?? 0, filter: .all, limit: 50)
                if page.isEmpty {
                    idleRounds += 1
                    if seen.count == writes * 4 { break }
                    try await Task.sleep(for: .milliseconds(2))
                } else {
                    idleRounds = 0
                    seen += page
                }
            }
            return seen
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<writes {
                for (store, name) in [(a, "a"), (b, "b")] {
                    group.addTask {
                        try await store.write { tx in
                            tx.appendEventForTest(provider: "p", count: UInt8(i % 250), type: "\(name)\(i)")
                            tx.appendEventForTest(provider: "p", count: UInt8(i % 250), type: "\(name)\(i)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let followed = try await follower.value
        let everything = try await b.events(after: 0, filter: .all, limit: 10_000)
        #expect(everything.count == writes * 4)
        #expect(followed.map(\.id) == everything.map(\.id))
        #expect(everything.map(\.id) == Array(1...Int64(writes * 4)))
        // A write's events are numbered together.
        for pair in stride(from: 0, to: everything.count, by: 2) {
            #expect(everything[pair].type == everything[pair + 1].type)
        }
    }

    /// Each process hears of the other's commits (LISTEN/NOTIFY), not of its own.
    @Test func commitsAreAnnouncedToOtherProcesses() async throws {
        let (a, b) = try await twoProcesses()
        let heard = Task {
            var ids: [Int64] = []
            for await id in b.eventCommits() {
                ids.append(id)
                if id >= 3 { break }
            }
            return ids
        }
        // The listener connects in the background: write until it has heard something.
        try await Task.sleep(for: .milliseconds(300))
        try await b.write { tx in tx.appendEventForTest(provider: "p", count: 9) }
        for count in 1...2 {
            try await a.write { tx in tx.appendEventForTest(provider: "p", count: UInt8(count)) }
        }
        let ids = try await withThrowingTaskGroup(of: [Int64]?.self) { group in
            group.addTask { await heard.value }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        heard.cancel()
        #expect(ids == [2, 3], "b hears a's two commits (ids 2 and 3), not its own (1)")
    }

    /// The token signing secret is created once and shared by every process.
    @Test func secretsAreShared() async throws {
        let (a, b) = try await twoProcesses()
        async let fromA = a.secret(named: "jwt", orCreate: { Array(repeating: 1, count: 48) })
        async let fromB = b.secret(named: "jwt", orCreate: { Array(repeating: 2, count: 48) })
        let (first, second) = try await (fromA, fromB)
        #expect(first.secret == second.secret)
        #expect(first.created != second.created)
        let again = try await a.secret(named: "jwt", orCreate: { [3] })
        #expect(again.secret == first.secret && !again.created)
    }

    /// A database nobody listens at: opening the store fails at once with UNAVAILABLE,
    /// saying where it looked (without the password).
    @Test func unreachableDatabaseIsUnavailable() async throws {
        let location = try PostgresLocation(url: "postgres://someone:hunter2@127.0.0.1:1/nowhere")
        let error = try await #require(throws: StatusError.self) { try await PostgresTripStore(location: location) }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("127.0.0.1:1/nowhere") && !error.message.contains("hunter2"))
    }
}

extension StoreTransaction {
    /// Appends a counting event for the tests above.
    func appendEventForTest(provider: String, count: UInt8, type: String = "count", vehicleId: String = "v1") {
        try? appendEvent(
            provider: provider,
            NewEvent(time: fixedTime, vehicleId: vehicleId, tripIds: [], type: type, data: "{\"count\":\(count)}"))
    }
}
