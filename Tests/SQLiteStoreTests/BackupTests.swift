import Dispatch
import Fleet
import Foundation
import SQLiteStore
import Synchronization
import Testing
import TripModel
import TripStore

/// `tripshare backup`'s copy (SQLiteBackup): consistent while the store keeps writing.
@Suite struct BackupTests {
    /// The writers' shared state: how many updates committed, and when to stop.
    final class Writers: Sendable {
        let committed = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
    }

    /// A backup copied a few pages at a time while four writers update their vehicles, with
    /// the copy held after its first step until 40 more updates have committed: it opens,
    /// passes `PRAGMA integrity_check`, needs no migration, holds every update acknowledged
    /// before it started, and holds a prefix of each vehicle's updates that leaves out the
    /// ones committed during the copy (one snapshot, not a mixture, and never restarted).
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
        let writers = Writers()
        let writing = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for v in 0..<4 {
                    group.addTask {
                        var i = 500
                        while !writers.stop.load(ordering: .relaxed) {
                            _ = try await fleet.updateVehicle(
                                provider: "p", id: "v\(v)", input: location(latitude(v, i), -122), mask: FieldMask("lastLocation"))
                            writers.committed.add(1, ordering: .relaxed)
                            i += 1
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let out = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backup.sqlite").path
        // On a thread of its own: the copy blocks while it waits for the writers.
        let (summary, duringCopy) = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var atFirstStep: Int?
                continuation.resume(
                    with: Result {
                        let summary = try SQLiteBackup.copy(from: path, to: out, pagesPerStep: 8) { _, _ in
                            guard atFirstStep == nil else { return }
                            let committed = writers.committed.load(ordering: .relaxed)
                            atFirstStep = committed
                            // A watchdog bound, not a timing assertion: 40 updates take far less.
                            let deadline = Date().addingTimeInterval(60)
                            while writers.committed.load(ordering: .relaxed) < committed + 40, Date() < deadline { usleep(1_000) }
                        }
                        return (summary, atFirstStep ?? 0)
                    })
            }
        }
        writers.stop.store(true, ordering: .relaxed)
        try await writing.value
        let written = writers.committed.load(ordering: .relaxed)
        #expect(written >= duringCopy + 40, "the writers committed while the copy was held")
        #expect(summary.pages > 8 && summary.bytes == summary.pages * 4_096)
        #expect(!FileManager.default.fileExists(atPath: out + "-wal"))

        let copy = try SQLiteTripStore(path: out)
        #expect(copy.newlyAppliedMigrations.isEmpty)
        #expect(try copy.integrityCheck() == "ok")
        var stored = 0
        for v in 0..<4 {
            let latitudes = try await StorageFailureTests.loggedLatitudes(copy, vehicle: "v\(v)")
            #expect(latitudes.count >= 500)
            #expect(latitudes == (0..<latitudes.count).map { latitude(v, $0) }, "vehicle v\(v) holds a prefix of its updates")
            stored += latitudes.count
        }
        // Each writer counts an update after it returns, so when the copy read the count each
        // may have had one more committed (and in the copy) than counted: at most 4.
        #expect(stored <= 2_000 + duringCopy + 4, "updates committed during the copy are not in it")
    }

    /// A backup never overwrites a file, and a missing database is named.
    @Test func backupRefusals() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteTripStore(path: path)
        let taken = path + ".taken"
        #expect(FileManager.default.createFile(atPath: taken, contents: Data("keep me".utf8)))
        let exists = try #require(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.copy(from: path, to: taken) }
        #expect(exists.description.contains("exists already"))
        #expect(FileManager.default.contents(atPath: taken) == Data("keep me".utf8))
        let missing = try #require(throws: SQLiteBackup.Failure.self) { try SQLiteBackup.copy(from: path + ".nope", to: path + ".out") }
        #expect(missing.description.contains("no database there"))
        #expect(!FileManager.default.fileExists(atPath: path + ".out") && !FileManager.default.fileExists(atPath: path + ".out.partial"))
    }
}
