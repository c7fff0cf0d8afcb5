import Synchronization
import TripStore

/// How the location updates fared with ``WriteRehearsal``, for `/metrics`: a high share of
/// stale rehearsals means rows change under them (a vehicle reporting faster than its
/// updates commit), and the writer does their work twice.
final class RehearsalCounts: Sendable {
    enum Outcome: Int, CaseIterable {
        /// Rehearsed, and the writer only checked and replayed it.
        case replayed
        /// Rehearsed, but a row it read had changed: run again on the writer.
        case stale
        /// Not rehearsed (it did what a rehearsal cannot, or failed): run on the writer.
        case notRehearsed
    }

    private let counts = Mutex([Int](repeating: 0, count: Outcome.allCases.count))

    func add(_ outcome: Outcome) {
        counts.withLock { $0[outcome.rawValue] += 1 }
    }

    func count(_ outcome: Outcome) -> Int {
        counts.withLock { $0[outcome.rawValue] }
    }

    var counters: [StoreCounter] {
        [
            StoreCounter(
                name: "tripshare_sqlite_location_updates_rehearsed_total",
                help: "Location updates worked out before the SQLite writer, which only checked and replayed them.",
                value: Double(count(.replayed))),
            StoreCounter(
                name: "tripshare_sqlite_location_updates_rehearsed_stale_total",
                help: "Location updates whose rows changed after they were worked out, so the SQLite writer ran them again.",
                value: Double(count(.stale))),
            StoreCounter(
                name: "tripshare_sqlite_location_updates_unrehearsed_total",
                help: "Location updates the SQLite writer ran itself (a new route segment, a failure, or what else a rehearsal cannot do).",
                value: Double(count(.notRehearsed))),
        ]
    }
}
