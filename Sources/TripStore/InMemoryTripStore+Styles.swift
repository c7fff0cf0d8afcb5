import Synchronization
import TripModel

/// The in-memory store's style records, behind their own lock.
final class StyleRecords: Sendable {
    let records = Mutex([String: StyleRecord]())
}

extension InMemoryTripStore: StyleStore {
    package func styleRecords() async throws -> [StyleRecord] {
        styles.records.withLock { $0.values.sorted { $0.name < $1.name } }
    }

    package func styleRecord(name: String) async throws -> StyleRecord? {
        styles.records.withLock { $0[name] }
    }

    package func saveStyle(name: String, overrides: String?, expectedVersion: Int64, time: Timestamp) async throws -> StyleRecord {
        try styles.records.withLock { (records) throws(StatusError) -> StyleRecord in
            let found = records[name]?.version ?? 0
            guard found == expectedVersion else { throw StyleRecord.conflict(name, expected: expectedVersion, found: found) }
            let record = StyleRecord(name: name, overrides: overrides, version: found + 1, updateTime: time)
            records[name] = record
            return record
        }
    }
}
