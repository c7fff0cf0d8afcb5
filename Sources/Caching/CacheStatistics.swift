/// What a cache holds and how its lookups fared since the server started: the figures an
/// operator sizes `--cache-mb` by (a cache whose lookups mostly miss is one the budget does
/// not hold), exposed on `/metrics`.
package struct CacheStatistics: Sendable, Equatable {
    /// What the cache holds (`decoded_vehicles`, `rest_trip_views`, ...).
    package let name: String
    /// Entries held now.
    package var entries = 0
    /// The entries' estimated bytes, counted against the pool.
    package var bytes = 0
    /// Lookups that found what they needed.
    package var hits = 0
    /// Lookups that found nothing, or an entry made from another version than the one needed.
    package var misses = 0
    /// Entries evicted to make room for others (not those removed because their row went).
    package var evictions = 0

    package init(name: String, entries: Int = 0, bytes: Int = 0, hits: Int = 0, misses: Int = 0, evictions: Int = 0) {
        self.name = name
        self.entries = entries
        self.bytes = bytes
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
    }

    /// Adds another cache's figures (one of the same name) to these.
    mutating func add(_ other: CacheStatistics) {
        entries += other.entries
        bytes += other.bytes
        hits += other.hits
        misses += other.misses
        evictions += other.evictions
    }
}
