import GRDB
import TripModel
import TripStore

extension SQLiteTransaction {
    func recordBillableTrip(provider: String, tripId: String, _ record: BillableTripRecord) throws -> BillableTripRecord {
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO billable_trips (provider, trip_id, name, reported_us, body) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (provider, trip_id) DO NOTHING
                """)
        try insert.execute(arguments: [provider, tripId, record.name, record.reportTime.microseconds, try Self.encode(record)])
        if db.changesCount > 0 { return record }
        let kept = try db.cachedStatement(sql: "SELECT body FROM billable_trips WHERE provider = ? AND trip_id = ?")
        guard let body = try String.fetchOne(kept, arguments: [provider, tripId]) else { return record }
        return try StoredRows.decode(BillableTripRecord.self, body)
    }

    func billableTrips(since: Timestamp, after: BillableTripRecord?, limit: Int) throws -> [BillableTripRecord] {
        let bodies: [String]
        if let after {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT body FROM billable_trips WHERE reported_us >= ? AND (reported_us, name) > (?, ?)
                    ORDER BY reported_us, name LIMIT ?
                    """)
            bodies = try String.fetchAll(statement, arguments: [since.microseconds, after.reportTime.microseconds, after.name, limit])
        } else {
            let statement = try db.cachedStatement(
                sql: "SELECT body FROM billable_trips WHERE reported_us >= ? ORDER BY reported_us, name LIMIT ?")
            bodies = try String.fetchAll(statement, arguments: [since.microseconds, limit])
        }
        return try bodies.map { try StoredRows.decode(BillableTripRecord.self, $0) }
    }
}
