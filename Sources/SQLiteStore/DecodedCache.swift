import Synchronization

/// Decoded resources by key and row version, so a read of an unchanged row skips JSON
/// decoding. An entry is used only when its version equals the version read from the
/// database in the same transaction, so the cache can never serve stale data.
final class DecodedCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var version: Int64
        var value: Value
    }

    private let entries = Mutex([String: Entry]())
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func value(for key: String, version: Int64) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.version == version else { return nil }
            return entry.value
        }
    }

    func store(_ value: Value, for key: String, version: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = Entry(version: version, value: value)
        }
    }

    func remove(_ key: String) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
