import Foundation
import GRDB
import TripModel
import TripStore

extension SQLiteTripStore: SecretStore {
    package func secret(named name: String, orCreate make: @escaping @Sendable () -> [UInt8]) async throws -> (secret: [UInt8], created: Bool) {
        if let stored = try readHere({ tx in try Data.fetchOne(tx.db, sql: "SELECT secret FROM server_secrets WHERE name = ?", arguments: [name]) }) {
            return (Array(stored), false)
        }
        let candidate = make()
        return try await writeSQL { tx in
            try tx.db.execute(
                sql: "INSERT OR IGNORE INTO server_secrets (name, secret, created_time_us) VALUES (?, ?, ?)",
                arguments: [name, Data(candidate), Int64(Date().timeIntervalSince1970 * 1_000_000)])
            let created = tx.db.changesCount == 1
            guard let stored = try Data.fetchOne(tx.db, sql: "SELECT secret FROM server_secrets WHERE name = ?", arguments: [name]) else {
                throw StatusError(.internal, "the secret '\(name)' was neither inserted nor found")
            }
            return (Array(stored), created)
        }
    }
}
