import PostgresNIO
import TripModel
import TripStore

extension PostgresTripStore: StyleStore {
    package func styleRecords() async throws -> [StyleRecord] {
        try await rows("SELECT name, overrides, version, update_time_us FROM styles ORDER BY name").map(Self.styleRecord)
    }

    package func styleRecord(name: String) async throws -> StyleRecord? {
        try await rows("SELECT name, overrides, version, update_time_us FROM styles WHERE name = \(name)").first.map(Self.styleRecord)
    }

    /// One statement, a compare-and-swap whichever process races it: version 1 is inserted
    /// only where there is none; a later version replaces exactly `expectedVersion` (an
    /// UPDATE that waited for another one checks its condition again on the row it left).
    package func saveStyle(name: String, overrides: String?, expectedVersion: Int64, time: Timestamp) async throws -> StyleRecord {
        let saved: [PostgresRow]
        if expectedVersion == 0 {
            saved = try await rows(
                """
                INSERT INTO styles (name, overrides, version, update_time_us) VALUES (\(name), \(overrides), 1, \(time.microseconds))
                ON CONFLICT (name) DO NOTHING RETURNING name, overrides, version, update_time_us
                """)
        } else {
            saved = try await rows(
                """
                UPDATE styles SET overrides = \(overrides), version = version + 1, update_time_us = \(time.microseconds)
                WHERE name = \(name) AND version = \(expectedVersion) RETURNING name, overrides, version, update_time_us
                """)
        }
        if let row = saved.first { return try Self.styleRecord(row) }
        let found = try await styleRecord(name: name)?.version ?? 0
        throw StyleRecord.conflict(name, expected: expectedVersion, found: found)
    }

    private static func styleRecord(_ row: PostgresRow) throws -> StyleRecord {
        let (name, overrides, version, time) = try row.decode((String, String?, Int64, Int64).self)
        return StyleRecord(name: name, overrides: overrides, version: version, updateTime: Timestamp(microseconds: time))
    }
}

extension PostgresTripStore: SecretStore {
    package func secret(named name: String, orCreate make: @escaping @Sendable () -> [UInt8]) async throws -> (secret: [UInt8], created: Bool) {
        let candidate = make()
        let inserted = try await rows(
            """
            INSERT INTO server_secrets (name, secret, created_time_us) VALUES (\(name), \(ByteBuffer(bytes: candidate)),
                (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
            ON CONFLICT (name) DO NOTHING RETURNING name
            """)
        if !inserted.isEmpty { return (candidate, true) }
        guard let stored = try await rows("SELECT secret FROM server_secrets WHERE name = \(name)").first else {
            throw StatusError(.internal, "the secret '\(name)' was neither inserted nor found")
        }
        return (Array(try stored.decode(ByteBuffer.self).readableBytesView), false)
    }
}
