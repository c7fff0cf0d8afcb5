// The transaction primitives' guarantees, checked directly (StoreTransaction.swift lists them).

import Synchronization
import Testing
import TripModel
import TripStore

extension StoreConformance {
    static let transactionChecks: [Check] = [
        Check("a write commits everything it did", writeCommitsEverything),
        Check("a write that throws changes nothing", throwingWriteChangesNothing),
        Check("simultaneous writes of one vehicle each see the one before", simultaneousWritesOfOneVehicle),
        Check("failed writes take back only their own changes", failedWritesTakeBackOnlyTheirOwn),
        Check("events are numbered in commit order and filtered", eventsInCommitOrder),
        Check("the navigator route is stored apart", navigatorRouteStoredApart),
        Check("navigation UI settings are stored apart, with their version", navigationUISettingsStoredApart),
        Check("revisions move exactly when a trip is written", revisionsMoveWithWrites),
    ]

    /// A vehicle's record (resource, navigator state) and the events of a write are all
    /// stored, and read back as written.
    static func writeCommitsEverything(_ make: Factory) async throws {
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        var changed = record
        changed.vehicle.navigationStatus = .enrouteToDestination
        changed.navigator.state = [1, 2]
        let written = changed
        try await store.write { tx in
            try tx.updateVehicle(provider: "p", id: "v1", written)
            try tx.appendEvent(provider: "p", Inputs.event("first", vehicle: "v1"))
            try tx.appendEvent(provider: "p", Inputs.event("second", vehicle: "v1"))
        }
        let stored = try await store.read { reader in try reader.vehicleRecord(provider: "p", id: "v1") }
        #expect(stored == written)
        let events = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10)
        #expect(events.map(\.type) == ["first", "second"])
        #expect(events.allSatisfy { $0.provider == "p" && $0.time == Inputs.time })
        #expect(try await store.read { reader in try reader.vehicleRecord(provider: "q", id: "v1") } == nil)
    }

    /// A write that throws after writing leaves no vehicle change, no trip, no event.
    static func throwingWriteChangesNothing(_ make: Factory) async throws {
        struct Refused: Error {}
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                var changed = record
                changed.navigator.state = [9]
                changed.vehicle.vehicleState = .offline
                try tx.updateVehicle(provider: "p", id: "v1", changed)
                try tx.insertTrip(provider: "p", id: "t1", try Inputs.storedTrip(provider: "p", id: "t1"))
                try tx.appendEvent(provider: "p", Inputs.event("lost", vehicle: "v1", trips: ["t1"]))
                try tx.setNavigatorRoute(provider: "p", vehicleId: "v1", [1])
                throw Refused()
            }
        }
        #expect(try await store.read { reader in try reader.vehicleRecord(provider: "p", id: "v1") } == record)
        #expect(try await store.revisionedTrip(provider: "p", id: "t1") == nil)
        #expect(try await store.latestEventID() == 0)
        #expect(try await store.read { reader in try reader.navigatorRoute(provider: "p", vehicleId: "v1") } == nil)
    }

    /// Many writes of one vehicle at once (a store may share transactions among them): each
    /// sees the one committed before it, so a count kept in the navigator state loses nothing,
    /// and their events are logged in the order they counted.
    static func simultaneousWritesOfOneVehicle(_ make: Factory) async throws {
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<60 {
                group.addTask {
                    try await store.write { tx in
                        guard var current = try tx.vehicleRecord(provider: "p", id: "v1") else { return }
                        let count = (current.navigator.state?.first ?? 0) + 1
                        current.navigator.state = [count]
                        try tx.updateVehicle(provider: "p", id: "v1", current)
                        try tx.appendEvent(provider: "p", Inputs.event("count", vehicle: "v1", data: "{\"count\":\(count)}"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { reader in try reader.vehicleRecord(provider: "p", id: "v1")?.navigator.state } == [60])
        let events = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 200)
        #expect(events.map(\.data) == (1...60).map { "{\"count\":\($0)}" })
    }

    /// Writes that fail mid-way (after inserting their trip and logging its event) take back
    /// only their own changes, whichever writes shared their transaction.
    static func failedWritesTakeBackOnlyTheirOwn(_ make: Factory) async throws {
        struct Refused: Error {}
        let store = try await make()
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for i in 0..<30 {
                group.addTask {
                    do {
                        try await store.write { tx in
                            try tx.insertTrip(provider: "p", id: "t\(i)", try Inputs.storedTrip(provider: "p", id: "t\(i)"))
                            try tx.appendEvent(provider: "p", Inputs.event("created", trips: ["t\(i)"]))
                            if i % 2 == 0 { throw Refused() }
                        }
                        return (i, true)
                    } catch is Refused {
                        return (i, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        for i in 0..<30 {
            #expect(outcomes[i] == (i % 2 == 1))
            let exists = try await store.revisionedTrip(provider: "p", id: "t\(i)") != nil
            #expect(exists == (i % 2 == 1), "trip t\(i)")
            let events = try await store.events(after: 0, filter: .trip(provider: "p", tripId: "t\(i)"), limit: 10)
            #expect(events.isEmpty == (i % 2 == 0), "events of t\(i)")
        }
    }

    /// Event IDs increase in commit order across writes; readers page through one vehicle's
    /// or one trip's events, or all of them, and see each once, in order.
    static func eventsInCommitOrder(_ make: Factory) async throws {
        let store = try await make()
        var log: [NewEvent] = []
        for i in 0..<1_300 {
            let vehicle = ["v1", "v2", "v3", nil][i % 4]
            let trips = i % 7 == 0 ? ["t1", "t2"] : (i % 3 == 0 ? ["t2"] : [])
            log.append(Inputs.event("e\(i)", vehicle: vehicle, trips: trips))
        }
        for start in stride(from: 0, to: log.count, by: 250) {
            let batch = Array(log[start..<min(start + 250, log.count)])
            try await store.write { tx in for event in batch { try tx.appendEvent(provider: "p", event) } }
        }
        try await store.write { tx in try tx.appendEvent(provider: "q", Inputs.event("other", vehicle: "v1", trips: ["t1"])) }
        let everything = try await store.events(after: 0, filter: .all, limit: 10_000)
        #expect(everything.map(\.type) == log.map(\.type) + ["other"])
        #expect(zip(everything, everything.dropFirst()).allSatisfy { $0.id < $1.id })
        #expect(try await store.latestEventID() == everything.last?.id)
        for filter in [
            EventFilter.vehicle(provider: "p", vehicleId: "v1"), .trip(provider: "p", tripId: "t1"),
            .trip(provider: "p", tripId: "t2"),
        ] {
            let expected = everything.filter(filter.matches).map(\.id)
            #expect(try await store.events(after: 0, filter: filter, limit: 10_000).map(\.id) == expected)
            var paged: [Int64] = []
            while true {
                let page = try await store.events(after: paged.last ?? 0, filter: filter, limit: 97).map(\.id)
                if page.isEmpty { break }
                paged += page
            }
            #expect(paged == expected, "\(filter) read 97 at a time")
        }
    }

    /// The navigator route is read and written apart from the vehicle; removing it empties
    /// it, and deleting the vehicle removes it.
    static func navigatorRouteStoredApart(_ make: Factory) async throws {
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        #expect(try await store.read { reader in try reader.navigatorRoute(provider: "p", vehicleId: "v1") } == nil)
        var routed = record
        routed.navigator = NavigatorRecord(state: [9], routeVersion: 42)
        let written = routed
        try await store.write { tx in
            try tx.setNavigatorRoute(provider: "p", vehicleId: "v1", [1, 2, 3])
            #expect(try tx.navigatorRoute(provider: "p", vehicleId: "v1") == [1, 2, 3])
            try tx.updateVehicle(provider: "p", id: "v1", written)
        }
        let (route, navigator) = try await store.read { reader in
            (try reader.navigatorRoute(provider: "p", vehicleId: "v1"), try reader.vehicleRecord(provider: "p", id: "v1")?.navigator)
        }
        #expect(route == [1, 2, 3] && navigator == NavigatorRecord(state: [9], routeVersion: 42))
        try await store.write { tx in try tx.setNavigatorRoute(provider: "p", vehicleId: "v1", nil) }
        #expect(try await store.read { reader in try reader.navigatorRoute(provider: "p", vehicleId: "v1") } == nil)
        try await store.write { tx in try tx.setNavigatorRoute(provider: "p", vehicleId: "v1", [7]) }
        try await store.write { tx in try tx.deleteVehicle(provider: "p", id: "v1") }
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        #expect(try await store.read { reader in try reader.navigatorRoute(provider: "p", vehicleId: "v1") } == nil)
    }

    /// A vehicle's navigation UI settings are stored and read back with their version, apart
    /// from the vehicle record; a write that throws takes them back; removing them or deleting
    /// the vehicle leaves none, and none are kept for a vehicle that does not exist.
    static func navigationUISettingsStoredApart(_ make: Factory) async throws {
        struct Refused: Error {}
        let store = try await make()
        let record = try Inputs.record(provider: "p", id: "v1")
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        func stored(_ provider: String = "p", _ id: String = "v1") async throws -> NavigationUISettingsRecord? {
            try await store.read { reader in try reader.navigationUISettings(provider: provider, vehicleId: id) }
        }
        #expect(try await stored() == nil)
        let first = NavigationUISettingsRecord(json: Array(#"{"compassButton":true}"#.utf8), version: 5)
        try await store.write { tx in
            try tx.setNavigationUISettings(provider: "p", vehicleId: "v1", first)
            #expect(try tx.navigationUISettings(provider: "p", vehicleId: "v1") == first)
        }
        #expect(try await stored() == first)
        #expect(try await stored("q") == nil)
        #expect(try await store.read { reader in try reader.vehicleRecord(provider: "p", id: "v1") } == record)
        let second = NavigationUISettingsRecord(json: Array("{}".utf8), version: 6)
        try await store.write { tx in try tx.setNavigationUISettings(provider: "p", vehicleId: "v1", second) }
        #expect(try await stored() == second)
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                try tx.setNavigationUISettings(provider: "p", vehicleId: "v1", first)
                throw Refused()
            }
        }
        #expect(try await stored() == second)
        try await store.write { tx in try tx.setNavigationUISettings(provider: "p", vehicleId: "v1", nil) }
        #expect(try await stored() == nil)
        try await store.write { tx in try tx.setNavigationUISettings(provider: "p", vehicleId: "v1", first) }
        try await store.write { tx in try tx.deleteVehicle(provider: "p", id: "v1") }
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "v1", record) }
        #expect(try await stored() == nil)
        try await store.write { tx in try tx.setNavigationUISettings(provider: "p", vehicleId: "nobody", first) }
        try await store.write { tx in try tx.insertVehicle(provider: "p", id: "nobody", record) }
        #expect(try await stored("p", "nobody") == nil)
    }

    /// A trip's revision moves with every write of it and only then; a progress update that
    /// changes nothing may be skipped but never loses a change.
    static func revisionsMoveWithWrites(_ make: Factory) async throws {
        let store = try await make()
        let trip = try Inputs.storedTrip(provider: "p", id: "t1")
        try await store.write { tx in try tx.insertTrip(provider: "p", id: "t1", trip) }
        let first = try #require(try await store.revisionedTrip(provider: "p", id: "t1"))
        #expect(first.value == trip)
        #expect(try await store.revisionedTrip(provider: "p", id: "t1")?.revision == first.revision)
        var changed = trip
        changed.numberOfPassengers = 3
        let written = changed
        try await store.write { tx in try tx.updateTrip(provider: "p", id: "t1", written) }
        let second = try #require(try await store.revisionedTrip(provider: "p", id: "t1"))
        #expect(second.value == written && second.revision != first.revision)
        let vehicle = try Inputs.record(provider: "p", id: "v1").vehicle
        try await store.write { tx in try tx.updateTripProgress(provider: "p", id: "t1", written, vehicle: vehicle) }
        #expect(try await store.revisionedTrip(provider: "p", id: "t1")?.value == written)
        var progressed = written
        progressed.remainingDistanceMeters = 1_234
        let derived = progressed
        try await store.write { tx in try tx.updateTripProgress(provider: "p", id: "t1", derived, vehicle: vehicle) }
        let third = try #require(try await store.revisionedTrip(provider: "p", id: "t1"))
        #expect(third.value == derived && third.revision != second.revision)
        #expect(try await store.read { reader in try reader.trip(provider: "p", id: "t1") } == derived)
        try await store.write { tx in try tx.deleteTrip(provider: "p", id: "t1") }
        #expect(try await store.revisionedTrip(provider: "p", id: "t1") == nil)
    }
}
