import Fleet
import Foundation
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripStore

/// `tripshare backup`'s copy (SQLiteBackup): consistent while the store keeps writing.
@Suite struct BackupTests {
    /// Tells the writers to stop.
    final class StopFlag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    /// A backup taken while four writers update their vehicles opens, passes
    /// `PRAGMA integrity_check`, needs no migration, holds every update acknowledged before it
    /// started, and holds a prefix of each vehicle's updates (one snapshot, not a mixture).
    @Test func backupUnderWriteLoad() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteTripStore(path: path)
        let fleet = fleet(store)
        for v in 0..<4 { _ = try await fleet.createVehicle(provider: "p", id: "v\(v)", input: vehicleInput()) }
        let latitude: @Sendable (Int, Int) -> Double = { v, i in 37 + Double(i) * 1e-5 + Double(v) * 1e-7 }
        for i in 0..<500 {
            for v in 0..<4 {
                _ = try await fleet.updateVehicle(provider: "p", id: "v\(v)", input: location(latitude(v, i), -122), mask: FieldMask("lastLocation"))
            }
        }
        let stop = StopFlag()
        let writers = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for v in 0..<4 {
                    group.addTask {
                        var i = 500
                        while !stop.raised.load(ordering: .relaxed) {
                            _ = try await fleet.updateVehicle(
                                provider: "p", id: "v\(v)", input: location(latitude(v, i), -122), mask: FieldMask("lastLocation"))
                            i += 1
                        }
                        return i
                    }
                }
                return try await group.reduce(0) { $0 + $1 }
            }
        }
        let out = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backup.sqlite").path
        var steps = 0
        let summary = try SQLiteBackup.copy(from: path, to: out) { _, _ in steps += 1 }
        stop.raised.store(true, ordering: .relaxed)
        let written = try await writers.value
        #expect(written > 2_000, "the writers were running")
        #expect(summary.pages > 0 && summary.bytes == summary.pages * 4_096 && steps > 0)
        #expect(!FileManager.default.fileExists(atPath: out + "-wal"))

        let copy = try SQLiteTripStore(path: out)
        #expect(copy.newlyAppliedMigrations.isEmpty)
        #expect(try copy.integrityCheck() == "ok")
        for v in 0..<4 {
            let stored = try await StorageFailureTests.loggedLatitudes(copy, vehicle: "v\(v)")
            #expect(stored.count >= 500)
            #expect(stored == (0..<stored.count).map { latitude(v, $0) }, "vehicle v\(v) holds a prefix of its updates")
        }
    }

    /// A backup never overwrites a file, and a missing database is named.
    @Test func backupRefusals() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteTripStore(path: path)
        let taken = path + ".taken"
        FileManager.default.createFile(atPath: taken, contents: Data("keep me".utf8))
        let exists = try #require(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.copy(from: path, to: taken) }
        #expect(exists.description.contains("exists already"))
        #expect(FileManager.default.contents(atPath: taken) == Data("keep me".utf8))
        let missing = try #require(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.copy(from: path + ".nope", to: path + ".out") }
        #expect(missing.description.contains("no database there"))
        #expect(!FileManager.default.fileExists(atPath: path + ".out") && !FileManager.default.fileExists(atPath: path + ".out.partial"))
    }
}
