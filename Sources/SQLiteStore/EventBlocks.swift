import GRDB
import TripStore

/// The order of the event log's audience indexes (migration 0005): by block of 1,024 event
/// ids first, then provider, vehicle or trip, and id. New events' entries then share the
/// last pages of each index instead of landing in one cold page per vehicle or trip, and a
/// reader of one audience's events seeks once per block, oldest first. Reads of one
/// vehicle's events of one type (its location history) use the index by vehicle and type of
/// migration 0013 instead.
enum EventBlocks {
    /// The block an event id belongs to; `id >> 10` in the schema and in ``select``.
    static func block(of eventId: Int64) -> Int64 { eventId >> 10 }

    /// The newest event's id; 0 for an empty log. Each subscription and each read of one
    /// vehicle's or trip's events asks it first. Retention may have deleted the newest event
    /// of an idle log, and then the log's start is the newest ID (migration 0012).
    static func latestID(_ db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: "SELECT MAX(COALESCE((SELECT MAX(id) FROM events), 0), (SELECT after_event FROM event_log_start))")
        return try Int64.fetchOne(statement) ?? 0
    }

    /// The oldest event's id, 0 for an empty log: reads of one audience start no lower, so
    /// they do not seek through the blocks retention has emptied.
    static func oldestID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MIN(id) FROM events")) ?? 0
    }

    /// The greatest id retention deleted: the log is whole after it (0 when none was).
    static func logStart(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT after_event FROM event_log_start")) ?? 0
    }

    /// Up to `limit` rows of one vehicle's events of one type after `afterID`, newest first:
    /// one range of the index by vehicle and type (migration 0013), however long the log.
    static func newest(
        _ db: Database, provider: String, vehicleId: String, type: String, after afterID: Int64,
        limit: Int
    ) throws -> [Row] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT * FROM events INDEXED BY events_by_vehicle_and_type
                WHERE provider = ? AND vehicle_id = ? AND type = ? AND id > ? ORDER BY id DESC LIMIT ?
                """)
        return try Row.fetchAll(statement, arguments: [provider, vehicleId, type, afterID, limit])
    }

    /// The oldest of the IDs of one vehicle's newest `limit` events of one type since it was
    /// created (nil when it has none): from the index by vehicle and type alone.
    static func newestFirstID(_ db: Database, provider: String, vehicleId: String, type: String, limit: Int) throws -> Int64? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT MIN(id) FROM (
                    SELECT id FROM events INDEXED BY events_by_vehicle_and_type
                    WHERE provider = ?1 AND vehicle_id = ?2 AND type = ?3
                        AND id > (SELECT history_after_event FROM vehicles WHERE provider = ?1 AND vehicle_id = ?2)
                    ORDER BY id DESC LIMIT ?4)
                """)
        return try Int64.fetchOne(statement, arguments: [provider, vehicleId, type, limit])
    }

    /// The IDs of the oldest `limit` of one vehicle's events of one type within `ids`.
    static func oldestIDs(_ db: Database, provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> [Int64] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT id FROM events INDEXED BY events_by_vehicle_and_type
                WHERE provider = ? AND vehicle_id = ? AND type = ? AND id >= ? AND id < ? ORDER BY id LIMIT ?
                """)
        return try Int64.fetchAll(statement, arguments: [provider, vehicleId, type, ids.lowerBound, ids.upperBound, limit])
    }

    /// Up to `limit` rows of `events` after `afterID` that `filter` lets through, in id order.
    static func select(_ db: Database, filter: EventFilter, after afterID: Int64, limit: Int) throws -> [Row] {
        let statement: Statement
        let provider: String
        let audience: String
        switch filter {
        case .all:
            // The event broadcaster's read: once per committed batch while anyone listens.
            let statement = try db.cachedStatement(sql: "SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?")
            return try Row.fetchAll(statement, arguments: [afterID, limit])
        case .vehicle(let vehicleProvider, let vehicleId):
            (provider, audience) = (vehicleProvider, vehicleId)
            statement = try db.cachedStatement(
                sql: """
                    SELECT * FROM events WHERE id >> 10 = ? AND provider = ? AND vehicle_id = ? AND id > ? ORDER BY id LIMIT ?
                    """)
        case .trip(let tripProvider, let tripId):
            (provider, audience) = (tripProvider, tripId)
            statement = try db.cachedStatement(
                sql: """
                    SELECT events.* FROM event_trips JOIN events ON events.id = event_trips.event_id
                    WHERE event_trips.block = ? AND event_trips.provider = ? AND event_trips.trip_id = ? AND event_trips.event_id > ?
                    ORDER BY event_trips.event_id LIMIT ?
                    """)
        }
        let latest = try latestID(db)
        guard limit > 0, latest > afterID else { return [] }
        var rows: [Row] = []
        var block = block(of: max(afterID + 1, try oldestID(db), 1))
        while block <= Self.block(of: latest), rows.count < limit {
            rows += try Row.fetchAll(statement, arguments: [block, provider, audience, afterID, limit - rows.count])
            block += 1
        }
        return rows
    }
}
