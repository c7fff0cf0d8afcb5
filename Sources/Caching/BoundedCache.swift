// The one in-memory cache of the project: a bounded map shared across threads, evicting
// with the CLOCK algorithm (second chance). Entries sit on a ring; a hit only sets the
// entry's reference bit, so reads stay as cheap as a dictionary lookup under a lock. When an
// insert needs room, the hand sweeps the ring: an entry whose bit is set gets it cleared and
// is passed over, the first whose bit is clear is evicted. Entries read since the hand last
// passed survive; what nobody reads goes first, as with LRU, without relinking a list on
// every hit. The bound is a count and, optionally, a total cost (bytes, say).
//
// The ring is kept as parallel arrays, so a hit copies the value out once and touches the
// reference bit without copying the entry (decoded trips are large structs), and a value
// replaced under its key stays where it is. Everything is inlinable: the caches sit on the
// hot paths of other modules (the stores' decoded rows), where unspecialised generic code
// paid a runtime metadata lookup per access.
//
// A cache may count its entries against a ``CachePool`` shared with other caches, which then
// evicts from whichever of them holds what was read least recently (CachePool.swift).

import Synchronization

/// A thread-safe cache of at most `capacity` entries and, optionally, `costLimit` total cost,
/// evicting the entries not read for the longest (CLOCK).
package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Ring {
        @usableFromInline var positions: [Key: Int] = [:]
        /// The key at each position; nil for a vacant one.
        @usableFromInline var keys: [Key?] = []
        @usableFromInline var values: [Value?] = []
        @usableFromInline var costs: [Int] = []
        @usableFromInline var referenced: [Bool] = []
        @usableFromInline var vacant: [Int] = []
        @usableFromInline var hand = 0
        @usableFromInline var totalCost = 0
        /// Positions the hand may move in its pool's sweeps, in sixty-fourths
        /// (``BoundedCache/evictForPool(force:)``).
        @usableFromInline var poolSteps = 0
        /// Lookups that found what they needed, lookups that did not, and entries evicted to
        /// make room (not those removed or replaced): counted under the lock the cache takes
        /// anyway, for ``BoundedCache/statistics``.
        @usableFromInline var hits = 0
        @usableFromInline var misses = 0
        @usableFromInline var evictions = 0

        @usableFromInline init() {}

        /// Empties a position, taking its cost off the total.
        @inlinable
        mutating func vacate(_ position: Int) {
            keys[position] = nil
            values[position] = nil
            totalCost -= costs[position]
            costs[position] = 0
            referenced[position] = false
            vacant.append(position)
        }

        /// Sweeps the hand to the first entry not referenced since its last pass, and evicts it:
        /// within two turns of the ring, the first clearing every bit it passes.
        @inlinable
        mutating func evictOne() {
            _ = evictUnreferenced(steps: 2 * keys.count)
        }

        /// Moves the hand over at most `steps` positions, clearing the reference bits it
        /// passes, and evicts the first entry whose bit was clear. Whether one was evicted.
        @inlinable
        mutating func evictUnreferenced(steps: Int) -> Bool {
            guard !positions.isEmpty else { return false }
            for _ in 0..<steps {
                if hand >= keys.count { hand = 0 }
                let position = hand
                hand += 1
                guard let key = keys[position] else { continue }
                if referenced[position] {
                    referenced[position] = false
                    continue
                }
                positions[key] = nil
                vacate(position)
                evictions += 1
                return true
            }
            return false
        }

        /// Caches `value` under `key`, replacing what was there, evicting others as needed.
        @inlinable
        mutating func insert(_ value: Value, forKey key: Key, cost: Int, capacity: Int, costLimit: Int?) {
            let fits = costLimit.map { cost <= $0 } ?? true
            if let position = positions[key] {
                guard fits else {
                    positions[key] = nil
                    vacate(position)
                    return
                }
                // Replaced in place: the entry keeps its position and counts as used.
                values[position] = value
                totalCost += cost - costs[position]
                costs[position] = cost
                referenced[position] = true
                while let costLimit, totalCost > costLimit, positions.count > 1 { evictOne() }
                return
            }
            guard fits else { return }
            while positions.count >= capacity || (costLimit.map { totalCost + cost > $0 } ?? false) {
                evictOne()
            }
            let position: Int
            if let free = vacant.popLast() {
                position = free
                keys[position] = key
                values[position] = value
                costs[position] = cost
            } else {
                position = keys.count
                keys.append(key)
                values.append(value)
                costs.append(cost)
                referenced.append(false)
            }
            positions[key] = position
            totalCost += cost
        }
    }

    @usableFromInline let ring = Mutex(Ring())
    /// The most entries kept.
    package let capacity: Int
    /// The most total cost kept, if bounded by cost.
    package let costLimit: Int?
    /// The pool the entries' costs count against, if any.
    @usableFromInline let pool: CachePool?
    /// What the cache holds, as `/metrics` names it (pooled caches only).
    let name: String

    /// A cache of at most `capacity` entries (at least 1) and, when given, at most
    /// `costLimit` total cost.
    package init(capacity: Int, costLimit: Int? = nil) {
        self.capacity = max(1, capacity)
        self.costLimit = costLimit.map { max(0, $0) }
        pool = nil
        name = ""
    }

    /// A cache of at most `capacity` entries whose costs (bytes) count against `pool`: it
    /// holds at most the pool's limit, less what the pool's other caches hold. The pool
    /// reports it under `name` (``CachePool/statistics``), summed with its namesakes.
    package init(capacity: Int = .max, pool: CachePool, name: String) {
        self.capacity = max(1, capacity)
        costLimit = pool.limit
        self.pool = pool
        self.name = name
        pool.join(self)
    }

    deinit { pool?.charge(-ring.withLock { $0.totalCost }) }

    /// The value cached under `key`, marking it as recently used.
    @inlinable
    package func value(forKey key: Key) -> Value? {
        value(forKey: key, where: { _ in true })
    }

    /// The value cached under `key`, where `usable` accepts it (a value made from the row
    /// version the reader needs, say); counted as a hit only then. The entry is marked as
    /// recently used either way: it is what was asked for.
    @inlinable
    package func value(forKey key: Key, where usable: (Value) -> Bool) -> Value? {
        ring.withLock { ring in
            guard let position = ring.positions[key], let value = ring.values[position] else {
                ring.misses += 1
                return nil
            }
            ring.referenced[position] = true
            guard usable(value) else {
                ring.misses += 1
                return nil
            }
            ring.hits += 1
            return value
        }
    }

    /// The value cached under `key`, marking it as recently used but counted neither as a hit
    /// nor as a miss: for a look that a counted lookup follows.
    @inlinable
    package func peekValue(forKey key: Key) -> Value? {
        ring.withLock { ring in
            guard let position = ring.positions[key] else { return nil }
            ring.referenced[position] = true
            return ring.values[position]
        }
    }

    /// Caches `value` under `key`, replacing what was there, evicting others as needed. A
    /// value whose cost alone exceeds the cost limit is not cached.
    @inlinable
    package func setValue(_ value: Value, forKey key: Key, cost: Int = 1) {
        let capacity = capacity
        let costLimit = costLimit
        // Room is made before the insert, so that the sweep never takes the entry it is made for.
        if let pool, cost <= pool.limit { pool.settle(leaving: cost) }
        let added = ring.withLock { ring in
            let before = ring.totalCost
            ring.insert(value, forKey: key, cost: cost, capacity: capacity, costLimit: costLimit)
            return ring.totalCost - before
        }
        if let pool {
            pool.charge(added)
            pool.settle()
        }
    }

    /// The value cached under `key`, or `make()`'s, cached with `cost(value)`. `make` runs
    /// outside the lock: two callers missing at once may both make the value.
    @inlinable
    package func value(forKey key: Key, cost: (Value) -> Int = { _ in 1 }, orMake make: () throws -> Value) rethrows -> Value {
        if let hit = value(forKey: key) { return hit }
        let made = try make()
        setValue(made, forKey: key, cost: cost(made))
        return made
    }

    /// Removes and returns the value cached under `key`.
    @inlinable
    @discardableResult
    package func removeValue(forKey key: Key) -> Value? {
        let (value, freed) = ring.withLock { ring -> (Value?, Int) in
            guard let position = ring.positions.removeValue(forKey: key) else { return (nil, 0) }
            let value = ring.values[position]
            let cost = ring.costs[position]
            ring.vacate(position)
            return (value, cost)
        }
        pool?.charge(-freed)
        return value
    }

    /// How many entries are cached.
    @inlinable
    package var count: Int { ring.withLock { $0.positions.count } }

    /// The total cost of the cached entries.
    @inlinable
    package var totalCost: Int { ring.withLock { $0.totalCost } }

    /// What the cache holds and how its lookups fared since it was made.
    package var statistics: CacheStatistics {
        ring.withLock { ring in
            CacheStatistics(
                name: name, entries: ring.positions.count, bytes: ring.totalCost, hits: ring.hits, misses: ring.misses,
                evictions: ring.evictions)
        }
    }
}

extension BoundedCache: PooledCache {
    func evictForPool(force: Bool) -> Bool {
        let freed = ring.withLock { ring -> Int? in
            let before = ring.totalCost
            if force {
                guard !ring.positions.isEmpty else { return nil }
                ring.evictOne()
            } else {
                // A sixty-fourth of the ring a visit, carried over where that is less than a
                // position: the hand goes round in 64 visits in a cache of any size, so an
                // entry of a small cache has as long to be read again as one of a large cache.
                ring.poolSteps += ring.keys.count
                let steps = ring.poolSteps / 64
                ring.poolSteps -= steps * 64
                guard steps > 0, ring.evictUnreferenced(steps: steps) else { return nil }
            }
            return before - ring.totalCost
        }
        guard let freed else { return false }
        pool?.charge(-freed)
        return true
    }
}
