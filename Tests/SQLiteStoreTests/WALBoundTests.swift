import Dispatch
import Foundation
import GRDB
import SQLiteStore
import Synchronization
import Testing
import TripModelTesting

/// The WAL file's bound (docs/limits.md, "SQLite's write-ahead log"; issue 29): held while
/// readers keep overlapping, and given up for a while, never waited on for ever, while one
/// reader holds an old snapshot.
@Suite struct WALBoundTests {
    /// The store's readers, overlapping without a break (each starts its read before the last
    /// one ends), never leave SQLite a moment of its own to start the log over, and take the
    /// read mark a RESTART checkpoint waits for; the writer holds new reads back and makes the
    /// moment, and the WAL file stays under its 16 MiB bound however much is written.
    @Test func overlappingReadersDoNotCarryTheLogPastItsBound() async throws {
        let path = try temporaryDatabasePath()
        // A wait long enough for readers on a loaded machine: the rule, not the clock, is tested.
        let store = try SQLiteTripStore(path: path, walLimits: WALLimits(writerWait: .seconds(60)))
        // Each read lasts at least 50 ms, longer than the checkpointer's pass waits (20 ms), and
        // ends only after the next has begun: the pass alone never starts the log over.
        let readers = OverlappingReaders(store: store, count: 4, holding: 0.05)
        var largest = 0
        // Each write logs some 25 KB: 3,000 of them log 75 MB, more than four times the bound.
        var writes = 0
        while writes < 3_000, store.walBound.counts.restarts < 3 {
            try await store.probeWrites()
            largest = max(largest, walFileBytes(path))
            writes += 1
        }
        // The writer starts the log over after a write is answered: the next write waits for it.
        try await store.probeWrites()
        let reads = await readers.stop()
        #expect(reads > 0)
        #expect(largest <= WALLimits.standard.fileBytes, "the WAL file reached \(largest) bytes")
        #expect(store.walBound.counts.waitsRunOut == 0)
        // What the operator sees of it on /metrics.
        let metrics = Dictionary(uniqueKeysWithValues: store.counters.map { ($0.name, $0.value) })
        #expect(metrics["tripshare_sqlite_wal_restarts_total"] == Double(store.walBound.counts.restarts))
        // 75 MB of log under a 16 MiB bound: the writer started it over at least once.
        #expect(metrics["tripshare_sqlite_wal_restarts_total"] ?? 0 >= 1)
        #expect(metrics["tripshare_sqlite_wal_waits_run_out_total"] == 0)
        #expect(metrics["tripshare_sqlite_wal_writer_held_seconds_total"] ?? 0 > 0)
    }

    /// A reader that holds one snapshot for long (as a backup does) makes the writer wait once,
    /// for its wait only; the writes go on, and the writer waits again after half a second, then
    /// after twice as long each time its wait runs out, up to the longest interval (on the
    /// clock passed in); once the read ends the log starts over and the file is cut back under
    /// the bound.
    @Test func aLongReadIsWaitedForLessOftenAndTheLogStartsOverWhenItEnds() async throws {
        let path = try temporaryDatabasePath()
        let clock = ManualClock()
        // The checkpointer's pass never tries to start the log over: only the writer does. Its
        // wait is long enough for the pass's copying on a loaded machine, not for the reader.
        let limits = WALLimits(
            fileBytes: 4 << 20, transactionHeadroomBytes: 1 << 20, passRestartPages: .max, writerWait: .seconds(2),
            secondsBeforeFirstRetry: 0.5, secondsBetweenWaits: 2)
        let store = try SQLiteTripStore(path: path, walLimits: limits, seconds: clock.seconds)
        let backup = try await SnapshotHolder.holding(path: path)
        var writes = 0
        while walFileBytes(path) < limits.fileBytes + (1 << 20), writes < 10_000 {
            try await store.probeWrites()
            writes += 1
        }
        #expect(walFileBytes(path) > limits.fileBytes, "the held snapshot keeps the log growing")
        #expect(store.walBound.counts.waitsRunOut == 1 && store.walBound.counts.restarts == 0)

        // Waits again after 0.5 s, then 1 s, then 2 s (the longest interval), then 2 s.
        for (interval, waits) in [(0.5, 2), (1.0, 3), (2.0, 4), (2.0, 5)] {
            clock.advance(by: interval - 0.25)
            try await store.probeWrites()
            try await store.probeWrites()
            #expect(store.walBound.counts.waitsRunOut == waits - 1, "before \(interval) s")
            clock.advance(by: 0.25)
            // The wait follows the write's answer; the next write is answered after it.
            try await store.probeWrites()
            try await store.probeWrites()
            #expect(store.walBound.counts.waitsRunOut == waits, "after \(interval) s")
        }

        await backup.end()
        clock.advance(by: 2)
        try await store.probeWrites()
        try await store.probeWrites()
        // Started over by the writer, or by SQLite itself if the checkpointer's pass copied
        // the log back first: either way the file is cut back, and no wait ran out.
        #expect(walFileBytes(path) <= limits.fileBytes - 2 * limits.transactionHeadroomBytes)
        #expect(store.walBound.counts.waitsRunOut == 5)
    }
}

/// The size of the WAL file beside the database at `path`.
private func walFileBytes(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Threads that read the database in relay: each read holds for a while and then ends only
/// once a later read has started, so that some read is always under way however the threads
/// are scheduled (on a loaded machine, reads that merely followed a timetable left gaps in
/// which SQLite started the log over itself). A read whose successor has not started after
/// `patience` ends anyway: the writer holds new reads back to make its moment.
private final class OverlappingReaders: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let reads = Atomic<Int>(0)
    private let running = DispatchGroup()

    /// Starts `count` readers of `store`, each holding its read at least `holding` seconds
    /// and at most `patience` more waiting for the next read to start.
    init(store: SQLiteTripStore, count: Int, holding: Double, patience: Double = 0.25) {
        for index in 0..<count {
            running.enter()
            Thread { [self] in
                Thread.sleep(forTimeInterval: holding * Double(index) / Double(count))
                while !stopping.load(ordering: .relaxed) {
                    try? store.holdingRead {
                        let started = reads.add(1, ordering: .relaxed).newValue
                        Thread.sleep(forTimeInterval: holding)
                        let deadline = Date(timeIntervalSinceNow: patience)
                        while reads.load(ordering: .relaxed) == started, !stopping.load(ordering: .relaxed), Date() < deadline {
                            Thread.sleep(forTimeInterval: 0.001)
                        }
                    }
                }
                running.leave()
            }.start()
        }
    }

    /// Stops the readers; the number of reads they made.
    func stop() async -> Int {
        stopping.store(true, ordering: .relaxed)
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            running.notify(queue: .global()) { ended.resume() }
        }
        return reads.load(ordering: .relaxed)
    }
}

/// A read transaction held open on its own thread, as a backup holds one for its whole copy.
private final class SnapshotHolder: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let ended = DispatchGroup()

    private init() {}

    /// Returns once a read of the database at `path` has taken its snapshot.
    static func holding(path: String) async throws -> SnapshotHolder {
        let holder = SnapshotHolder()
        let pool = try DatabasePool(path: path)
        holder.ended.enter()
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            Thread {
                var resumed = false
                try? pool.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM storage_probe")
                    resumed = true
                    started.resume()
                    holder.release.wait()
                }
                if !resumed { started.resume() }
                holder.ended.leave()
            }.start()
        }
        return holder
    }

    /// Ends the read; returns once it has ended.
    func end() async {
        release.signal()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            ended.notify(queue: .global()) { done.resume() }
        }
    }
}
