import GRDB
import TripModel
import TripStore

extension SQLiteTripStore: StyleStore {
    package func styleRecords() async throws -> [StyleRecord] {
        try readHere { tx in try Row.fetchAll(tx.db, sql: "SELECT * FROM styles ORDER BY name").map(Self.styleRecord) }
    }

    package func styleRecord(name: String) async throws -> StyleRecord? {
        try readHere { tx in try Row.fetchOne(tx.db, sql: "SELECT * FROM styles WHERE name = ?", arguments: [name]).map(Self.styleRecord) }
    }

    package func saveStyle(name: String, overrides: String?, expectedVersion: Int64, time: Timestamp) async throws -> StyleRecord {
        try await writeSQL { tx in
            let found = try Int64.fetchOne(tx.db, sql: "SELECT version FROM styles WHERE name = ?", arguments: [name]) ?? 0
            guard found == expectedVersion else { throw StyleRecord.conflict(name, expected: expectedVersion, found: found) }
            let record = StyleRecord(name: name, overrides: overrides, version: found + 1, updateTime: time)
            try tx.db.execute(
                sql: """
                    INSERT INTO styles (name, overrides, version, update_time_us) VALUES (?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET overrides = excluded.overrides, version = excluded.version,
                        update_time_us = excluded.update_time_us
                    """, arguments: [name, overrides, record.version, time.microseconds])
            return record
        }
    }

    private static func styleRecord(_ row: Row) -> StyleRecord {
        StyleRecord(
            name: row["name"], overrides: row["overrides"], version: row["version"],
            updateTime: Timestamp(microseconds: row["update_time_us"]))
    }
}
