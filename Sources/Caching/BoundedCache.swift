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

        /// Sweeps the hand to the first entry not referenced since its last pass, and evicts it.
        @inlinable
        mutating func evictOne() {
            guard !positions.isEmpty else { return }
            while true {
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
                return
            }
        }
    }

    @usableFromInline let ring = Mutex(Ring())
    /// The most entries kept.
    package let capacity: Int
    /// The most total cost kept, if bounded by cost.
    package let costLimit: Int?

    /// A cache of at most `capacity` entries (at least 1) and, when given, at most
    /// `costLimit` total cost.
    package init(capacity: Int, costLimit: Int? = nil) {
        self.capacity = max(1, capacity)
        self.costLimit = costLimit.map { max(0, $0) }
    }

    /// The value cached under `key`, marking it as recently used.
    @inlinable
    package func value(forKey key: Key) -> Value? {
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
        ring.withLock { ring in
            let fits = costLimit.map { cost <= $0 } ?? true
            if let position = ring.positions[key] {
                guard fits else {
                    ring.positions[key] = nil
                    ring.vacate(position)
                    return
                }
                // Replaced in place: the entry keeps its position and counts as used.
                ring.values[position] = value
                ring.totalCost += cost - ring.costs[position]
                ring.costs[position] = cost
                ring.referenced[position] = true
                while let costLimit, ring.totalCost > costLimit, ring.positions.count > 1 { ring.evictOne() }
                return
            }
            guard fits else { return }
            while ring.positions.count >= capacity || (costLimit.map { ring.totalCost + cost > $0 } ?? false) {
                ring.evictOne()
            }
            let position: Int
            if let free = ring.vacant.popLast() {
                position = free
                ring.keys[position] = key
                ring.values[position] = value
                ring.costs[position] = cost
            } else {
                position = ring.keys.count
                ring.keys.append(key)
                ring.values.append(value)
                ring.costs.append(cost)
                ring.referenced.append(false)
            }
            ring.positions[key] = position
            ring.totalCost += cost
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
        ring.withLock { ring in
            guard let position = ring.positions.removeValue(forKey: key) else { return nil }
            let value = ring.values[position]
            ring.vacate(position)
            return value
        }
    }

    /// How many entries are cached.
    @inlinable
    package var count: Int { ring.withLock { $0.positions.count } }

    /// The total cost of the cached entries.
    @inlinable
    package var totalCost: Int { ring.withLock { $0.totalCost } }
}
