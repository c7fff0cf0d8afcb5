import Caching
import GRDB
import TripModel

/// A listing's count kept with the listing version it was counted at (migration 0019).
struct ListingCount: Sendable {
    let version: Int64
    let count: Int
}

/// What a count is kept under: the provider and the criteria it counted.
struct ListingCountKey: Hashable, Sendable {
    let provider: String
    let criteria: VehicleCriteria
}

extension SQLiteTripStore {
    /// How many of the provider's vehicles meet `criteria`: the count kept from a listing at
    /// the same listing version, else counted now. Criteria on the position or on the last
    /// location's age change with every location update and are always counted.
    static func listingCount(
        _ tx: SQLiteTransaction, provider: String, criteria: VehicleCriteria, condition: (sql: String, arguments: StatementArguments),
        kept: BoundedCache<ListingCountKey, ListingCount>
    ) throws -> Int {
        let changesWithEveryUpdate = criteria.locatedSince != nil || criteria.area != nil
        let version = changesWithEveryUpdate ? nil : try Int64.fetchOne(tx.db, sql: "SELECT version FROM listing_version")
        let key = ListingCountKey(provider: provider, criteria: criteria)
        if let version, let count = kept.value(forKey: key), count.version == version { return count.count }
        let count =
            try Int.fetchOne(
                tx.db, sql: "SELECT COUNT(*) FROM vehicles WHERE provider = ? AND \(condition.sql)",
                arguments: [provider] + condition.arguments) ?? 0
        if let version { kept.setValue(ListingCount(version: version, count: count), forKey: key) }
        return count
    }
}
