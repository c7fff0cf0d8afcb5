import Fleet
import Foundation
import GRDB
import JSON
import SQLiteStore
import Testing
import TripModel
import TripStore

/// A full disk, played by SQLite's page limit: writes answer UNAVAILABLE with a message that
/// says so, the store's health reports it, nothing acknowledged is lost, and everything
/// recovers by itself once the limit is lifted.
@Suite struct StorageFailureTests {
    /// The database file's size in pages, as another connection reads it (WAL included).
    static func pageCount(_ path: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    /// The latitudes of every location logged for `vehicle`, in log order.
    static func loggedLatitudes(_ store: SQLiteTripStore, vehicle: String) async throws -> [Double] {
        try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: vehicle), limit: 100_000)
            .filter { $0.type == "didUpdateVehicleLocation" }
            .compactMap { try StrictJSONDecoder().decode(VehicleLocation.self, from: $0.data.utf8, root: "").location?.latitude }
    }

    /// Readiness once the store's probe has answered: on a busy machine a probe can outlast
    /// the readiness deadline, and the answer then is "did not answer within"; asked again,
    /// the probe that went on has its result.
    static func settledReadiness(_ fleet: Fleet, until settled: (Readiness) -> Bool = { _ in true }) async throws -> Readiness {
        var readiness = await fleet.readiness()
        for _ in 0..<25 {
            if !Self.timedOut(readiness) && settled(readiness) { break }
            try await Task.sleep(for: .milliseconds(200))
            readiness = await fleet.readiness()
        }
        return readiness
    }

    static func timedOut(_ readiness: Readiness) -> Bool {
        guard case .unavailable(let reason) = readiness else { return false }
        return reason.hasPrefix("the store did not answer within")
    }

    /// Updates one after another until the disk is full: the first refused one answers
    /// UNAVAILABLE "the database's disk is full", the health says so and the probe fails;
    /// reads still work; after the limit is lifted, the probe succeeds, health recovers,
    /// writes succeed, and every update acknowledged before, during and after is stored.
    @Test func fullDiskAnswersUnavailableAndRecovers() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let fleet = fleet(store)
        _ = try await fleet.createVehicle(provider: "p", id: "v1", input: vehicleInput())
        try await store.limitPageCount(to: try Self.pageCount(path) + 3)

        var acknowledged: [Double] = []
        var refusal: StatusError?
        for i in 0..<20_000 {
            let latitude = 37 + Double(i) * 1e-5
            do {
                _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: location(latitude, -122), mask: FieldMask("lastLocation"))
                acknowledged.append(latitude)
            } catch let error as StatusError {
                refusal = error
                break
            }
        }
        let refused = try #require(refusal, "the page limit was never reached")
        #expect(refused.code == .unavailable)
        #expect(refused.message.contains("the database's disk is full"), "\(refused.message)")
        #expect(store.health.failure == refused)
        await #expect(throws: StatusError.self) { try await store.probeWrites() }
        #expect(try await Self.settledReadiness(fleet) == .unavailable(refused.message))
        // Reads go on.
        #expect(try await fleet.vehicle(provider: "p", id: "v1").lastLocation?.location?.latitude == acknowledged.last)

        try await store.limitPageCount(to: nil)
        // A probe started before the limit was lifted may still answer "full" once.
        #expect(try await Self.settledReadiness(fleet) { $0 == .ready } == .ready)
        #expect(store.health.failure == nil)
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: location(38, -122), mask: FieldMask("lastLocation"))
        #expect(try await Self.loggedLatitudes(store, vehicle: "v1") == acknowledged + [38])
    }

    /// Many writers at once while the disk fills up, whichever writes share a transaction:
    /// each write is either acknowledged and stored, or refused with UNAVAILABLE (never
    /// INTERNAL), and every acknowledged one reads back.
    @Test func concurrentWritersOnAFullDisk() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let fleet = fleet(store)
        for v in 0..<8 { _ = try await fleet.createVehicle(provider: "p", id: "v\(v)", input: vehicleInput()) }
        try await store.limitPageCount(to: try Self.pageCount(path) + 6)
        let outcomes = try await withThrowingTaskGroup(of: (vehicle: Int, acknowledged: [Double], refusals: [StatusError]).self) { group in
            for v in 0..<8 {
                group.addTask {
                    var acknowledged: [Double] = []
                    var refusals: [StatusError] = []
                    for i in 0..<400 {
                        let latitude = 37 + Double(i) * 1e-4 + Double(v) * 1e-6
                        do {
                            _ = try await fleet.updateVehicle(
                                provider: "p", id: "v\(v)", input: location(latitude, -122), mask: FieldMask("lastLocation"))
                            acknowledged.append(latitude)
                        } catch let error as StatusError {
                            refusals.append(error)
                        }
                    }
                    return (v, acknowledged, refusals)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let refusals = outcomes.flatMap(\.refusals)
        #expect(!refusals.isEmpty, "the page limit was never reached")
        #expect(
            refusals.allSatisfy { $0.code == .unavailable && $0.message.contains("disk is full") },
            "\(Set(refusals.map(\.description)))")
        try await store.limitPageCount(to: nil)
        for outcome in outcomes {
            #expect(try await Self.loggedLatitudes(store, vehicle: "v\(outcome.vehicle)") == outcome.acknowledged)
        }
        #expect(try store.integrityCheck() == "ok")
    }

    /// A server started on a disk that is already full says it is not ready before the first
    /// write fails (issue 29, item 5): until a write has succeeded, readiness probes with one.
    @Test func fullAtStartIsNotReadyBeforeAnyWrite() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let fleet = fleet(store)
        try await store.limitPageCount(to: try Self.pageCount(path))
        let readiness = try await Self.settledReadiness(fleet)
        guard case .unavailable(let reason) = readiness else {
            Issue.record("ready on a full disk before any write")
            return
        }
        #expect(reason.contains("the database's disk is full"), "\(reason)")

        try await store.limitPageCount(to: nil)
        // Ready once there is room again.
        #expect(try await Self.settledReadiness(fleet) { $0 == .ready } == .ready)
        #expect(store.health.hasSucceeded)
    }
}
