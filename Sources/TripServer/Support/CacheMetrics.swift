import Caching

/// The cache pool's figures in Prometheus' text format, for `/metrics`: the pool's limit and
/// what it holds, and for each cache (label `cache`) its entries and bytes now and its hits,
/// misses and evictions since the start. docs/operations.md ("Memory") says how to read them.
enum CacheMetrics {
    static func exposition(_ pool: CachePool) -> String {
        let caches = pool.statistics
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ value: (CacheStatistics) -> Int) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for cache in caches { text += "\(name){cache=\"\(cache.name)\"} \(value(cache))\n" }
        }
        text += "# HELP tripshare_cache_pool_limit_bytes The bytes the caches may hold together (85% of --cache-mb).\n"
        text += "# TYPE tripshare_cache_pool_limit_bytes gauge\ntripshare_cache_pool_limit_bytes \(pool.limit)\n"
        text += "# HELP tripshare_cache_pool_bytes The bytes the caches hold together, as their entries are estimated.\n"
        text += "# TYPE tripshare_cache_pool_bytes gauge\ntripshare_cache_pool_bytes \(pool.bytes)\n"
        family("tripshare_cache_entries", "gauge", "Entries a cache holds.") { $0.entries }
        family("tripshare_cache_bytes", "gauge", "The estimated bytes of a cache's entries.") { $0.bytes }
        family("tripshare_cache_hits_total", "counter", "Lookups that found what they needed.") { $0.hits }
        family(
            "tripshare_cache_misses_total", "counter",
            "Lookups that found nothing, or an entry of another version than the one needed: the work was done again."
        ) { $0.misses }
        family("tripshare_cache_evictions_total", "counter", "Entries evicted to make room for others.") { $0.evictions }
        return text
    }
}
