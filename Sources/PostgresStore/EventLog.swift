// The event log's ids are in commit order across processes, because they are handed out at
// the very end of each write transaction, under a lock held until its commit.
//
// Why not a sequence: a sequence (or an identity column) numbers rows when they are
// inserted, not when they commit. Process A takes id 7, process B takes id 8 and commits
// first; a reader (B's event broadcaster, or a rider resuming with Last-Event-ID: 8) sees 8,
// moves its cursor past it, and never reads 7, which commits a moment later. Readers would
// have to wait for gaps to fill, and cannot tell a gap that will fill from one that will not
// (a rolled-back transaction).
//
// Here, the last step of every write transaction that logs events is one statement that
// updates the single row of event_log_head (`last_id = last_id + n`, taking the row's lock),
// inserts the transaction's events with the ids `last_id + 1 ... last_id + n`, and queues a
// NOTIFY; then the transaction commits. A second transaction's update of that row waits for
// the first to end, and PostgreSQL releases a transaction's locks only after its commit is
// visible to every new snapshot: ids are handed out in the order transactions commit, and
// every reader that sees id n sees all ids below it. The lock is held for one statement and
// the commit, once per batch of writes (WriteLane), which is why batching pays here.

import Foundation
import Logging
import NIOCore
import PostgresNIO
import TripModel
import TripStore

enum EventLog {
    /// The NOTIFY channel of a schema's commits.
    static func channel(schema: String) -> String { "tripshare_events_" + schema }

    /// The statement that ends a write batch: numbers and inserts its events, sets the
    /// history start of the vehicles it inserted, and queues a notification naming
    /// `instance` and the newest id, delivered at commit. Nil when there is nothing to do.
    static func flush(_ batch: WriteBatch, channel: String, instance: String) -> EventLogFlush? {
        guard !batch.events.isEmpty || !batch.insertedVehicles.isEmpty else { return nil }
        var flush = EventLogFlush(channel: channel, instance: instance)
        for (index, (provider, event)) in batch.events.enumerated() {
            let ordinal = Int64(index + 1)
            flush.ordinals.append(ordinal)
            flush.times.append(event.time.microseconds)
            flush.providers.append(provider)
            // IDs are never empty (TripModel), so '' stands for "no vehicle" in the array.
            flush.vehicles.append(event.vehicleId ?? "")
            flush.types.append(event.type)
            flush.payloads.append(event.data)
            flush.tripLists.append(event.tripIds.joined(separator: ","))
            for trip in event.tripIds {
                flush.audienceOrdinals.append(ordinal)
                flush.audienceProviders.append(provider)
                flush.audienceTrips.append(trip)
            }
        }
        for inserted in batch.insertedVehicles {
            flush.insertedProviders.append(inserted.provider)
            flush.insertedIds.append(inserted.id)
            flush.eventsBefore.append(Int64(inserted.eventsBefore))
        }
        return flush
    }

    /// The columns every event read selects, in ``event(_:)``'s order.
    static let columns = "id, time_us, provider, vehicle_id, type, data, trip_ids"

    /// An event as its row holds it.
    static func event(_ row: PostgresRow) throws -> StoredEvent {
        let (id, time, provider, vehicleId, type, data, trips) = try row.decode((Int64, Int64, String, String?, String, String, String).self)
        return StoredEvent(
            id: id, time: Timestamp(microseconds: time), provider: provider, vehicleId: vehicleId,
            tripIds: trips.isEmpty ? [] : trips.split(separator: ",").map(String.init), type: type, data: data)
    }

    /// Events after `afterID` that `filter` lets through, in id order, at most `limit`.
    static func select(filter: EventFilter, after afterID: Int64, limit: Int) -> PostgresQuery {
        switch filter {
        case .all:
            return "SELECT \(unescaped: columns) FROM events WHERE id > \(afterID) ORDER BY id LIMIT \(limit)"
        case .vehicle(let provider, let vehicleId):
            return """
                SELECT \(unescaped: columns) FROM events WHERE provider = \(provider) AND vehicle_id = \(vehicleId) AND id > \(afterID)
                ORDER BY id LIMIT \(limit)
                """
        case .trip(let provider, let tripId):
            return """
                SELECT \(unescaped: columns.split(separator: ", ").map { "e." + $0 }.joined(separator: ", "))
                FROM event_trips a JOIN events e ON e.id = a.event_id
                WHERE a.provider = \(provider) AND a.trip_id = \(tripId) AND a.event_id > \(afterID)
                ORDER BY a.event_id LIMIT \(limit)
                """
        }
    }

    /// A vehicle's newest events of one type since it was created, newest first.
    static func newest(provider: String, vehicleId: String, type: String, limit: Int) -> PostgresQuery {
        """
        SELECT \(unescaped: columns) FROM events
        WHERE provider = \(provider) AND vehicle_id = \(vehicleId) AND type = \(type)
            AND id > (SELECT history_after_event FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(vehicleId))
        ORDER BY id DESC LIMIT \(limit)
        """
    }

    /// The oldest ID among a vehicle's newest events of one type since it was created (NULL
    /// when it has none), from the index by vehicle and type alone (migration 0005).
    static func newestFirstID(provider: String, vehicleId: String, type: String, limit: Int) -> PostgresQuery {
        """
        SELECT min(id) FROM (
            SELECT id FROM events
            WHERE provider = \(provider) AND vehicle_id = \(vehicleId) AND type = \(type)
                AND id > (SELECT history_after_event FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(vehicleId))
            ORDER BY id DESC LIMIT \(limit)
        ) AS newest
        """
    }
}

/// ``EventLog/flush(_:channel:instance:)``'s statement, prepared once per connection (it ends
/// every write batch). $1–$7 are the events (ordinals from 1), $8–$10 their audience, $11–$13
/// the vehicles inserted in the batch with how many of its events came before each, $14 and
/// $15 the channel and the instance named in the notification.
struct EventLogFlush: RowStatement {
    static let sql = """
        WITH head AS (
            UPDATE event_log_head SET last_id = last_id + cardinality($1::bigint[])
            RETURNING last_id - cardinality($1::bigint[]) AS base
        ), logged AS (
            INSERT INTO events (id, time_us, provider, vehicle_id, type, data, trip_ids)
            SELECT head.base + e.ordinal, e.time_us, e.provider, NULLIF(e.vehicle_id, ''), e.type, e.data, e.trip_ids
            FROM head, unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                AS e(ordinal, time_us, provider, vehicle_id, type, data, trip_ids)
        ), audience AS (
            INSERT INTO event_trips (provider, trip_id, event_id)
            SELECT a.provider, a.trip_id, head.base + a.ordinal
            FROM head, unnest($8::bigint[], $9::text[], $10::text[]) AS a(ordinal, provider, trip_id)
        ), histories AS (
            UPDATE vehicles SET history_after_event = head.base + h.events_before
            FROM head, unnest($11::text[], $12::text[], $13::bigint[]) AS h(provider, vehicle_id, events_before)
            WHERE vehicles.provider = h.provider AND vehicles.vehicle_id = h.vehicle_id
        )
        SELECT head.base + cardinality($1::bigint[]),
            CASE WHEN cardinality($1::bigint[]) > 0 THEN pg_notify($14, $15 || ':' || (head.base + cardinality($1::bigint[]))) END
        FROM head
        """
    var channel: String
    var instance: String
    var ordinals: [Int64] = []
    var times: [Int64] = []
    var providers: [String] = []
    var vehicles: [String] = []
    var types: [String] = []
    var payloads: [String] = []
    var tripLists: [String] = []
    var audienceOrdinals: [Int64] = []
    var audienceProviders: [String] = []
    var audienceTrips: [String] = []
    var insertedProviders: [String] = []
    var insertedIds: [String] = []
    var eventsBefore: [Int64] = []

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 15)
        bindings.append(ordinals)
        bindings.append(times)
        bindings.append(providers)
        bindings.append(vehicles)
        bindings.append(types)
        bindings.append(payloads)
        bindings.append(tripLists)
        bindings.append(audienceOrdinals)
        bindings.append(audienceProviders)
        bindings.append(audienceTrips)
        bindings.append(insertedProviders)
        bindings.append(insertedIds)
        bindings.append(eventsBefore)
        bindings.append(channel)
        bindings.append(instance)
        return bindings
    }
}
