import Caching

/// Decoded resources by key and row version, so a read of an unchanged row skips JSON
/// decoding. An entry is used only when its version equals the version read from the
/// database in the same transaction, so the cache can never serve stale data.
struct DecodedCache<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var version: Int64
        var value: Value
    }

    private let entries: BoundedCache<String, Entry>

    init(capacity: Int) { entries = BoundedCache(capacity: capacity) }

    func value(for key: String, version: Int64) -> Value? {
        guard let entry = entries.value(forKey: key), entry.version == version else { return nil }
        return entry.value
    }

    func store(_ value: Value, for key: String, version: Int64) {
        entries.setValue(Entry(version: version, value: value), forKey: key)
    }

    func remove(_ key: String) {
        entries.removeValue(forKey: key)
    }
}
