// One memory budget for every per-item cache of a server process (`serve --cache-mb`)
// (docs/operations.md, "Memory"). Each cache is bounded by the bytes its entries are
// estimated to hold, not by how many there are: a fleet of 50,000 vehicles with short routes
// and one of 5,000 with long ones need the same memory for the same hit rate, and a count
// sized for a small fleet thrashes in a large one (issue 30: every rider's read decoded its
// trip, encoded its view and checked its token's signature anew once the fleet outgrew 20,000
// entries). SQLite's page cache has a fixed share; the caches of decoded rows, views and
// tokens share the rest as one pool (``CachePool``), so the budget goes where the reads are.

/// The bytes a server's caches may hold: SQLite's pages, and a pool for the rest.
public struct CacheBudget: Sendable, Equatable, CustomStringConvertible {
    /// The whole budget, in bytes.
    package let bytes: Int
    /// The pool the decoded-row, trip-view and verified-token caches share: 85% of the
    /// budget. One budget's caches share one pool: give a server's parts the same budget.
    package let caches: CachePool

    /// The default: 256 MB, whose pool keeps some 25,000 decoded vehicles with 500-point
    /// routes (some 45,000 once it is full and holds them without their kept stretches of
    /// route), or the views and tokens of some 65,000 riders; 40 MB keeps a server of 10,000
    /// or 50,000 at about 100-110 MB resident, and costs reads several times the CPU once what is
    /// read outgrows it (docs/operations.md, "Memory"). A budget of its own for each use
    /// (each has its pool).
    public static var standard: CacheBudget { CacheBudget(megabytes: 256) }

    /// The largest budget `--cache-mb` accepts (64 GB).
    package static let maximumMegabytes = 65_536

    /// A budget of `megabytes` × 2²⁰ bytes (negative counts as 0).
    package init(megabytes: Int) { self.init(bytes: max(0, min(megabytes, Self.maximumMegabytes)) << 20) }

    /// A budget of exactly `bytes` (tests).
    package init(bytes: Int) {
        self.bytes = max(0, bytes)
        caches = CachePool(bytes: self.bytes / 100 * 85)
    }

    /// SQLite's page cache, over all of the store's connections (15%); on PostgreSQL, whose
    /// pages the database server caches, this share is left unused.
    package var databasePages: Int { share(15) }

    private func share(_ percent: Int) -> Int { bytes / 100 * percent }

    /// Budgets of the same size are equal, whatever their caches hold.
    public static func == (lhs: CacheBudget, rhs: CacheBudget) -> Bool { lhs.bytes == rhs.bytes }

    /// The budget in megabytes, for messages.
    public var description: String { "\(bytes >> 20) MB" }
}
