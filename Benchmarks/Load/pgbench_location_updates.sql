-- pgbench: one write batch of :batch location updates, the statements a tripshare server's
-- write lane runs on PostgreSQL (Sources/PostgresStore: WriteLane, VehiclesForWrite,
-- VehicleUpdates, EventLogFlush), on the fleet load_seed.py makes (provider "load", vehicle
-- "vN" with trip "tN"). Run by Benchmarks/Load/pgbench-reference, which sets :vehicles and
-- :batch.
\set first random(0, :vehicles - 1)
BEGIN;
-- The batch's vehicles locked ahead, with their unfinished trips (another transaction's lock:
-- skipped). The server holds their rows decoded, so it asks for no body.
SELECT v.row_version, v.navigator_route_version,
    ARRAY(SELECT t.trip_id FROM trips t WHERE t.provider = v.provider AND t.vehicle_id = v.vehicle_id AND t.unfinished
          ORDER BY t.id),
    ARRAY(SELECT t.row_version FROM trips t WHERE t.provider = v.provider AND t.vehicle_id = v.vehicle_id AND t.unfinished
          ORDER BY t.id),
    v.provider, v.vehicle_id
FROM (SELECT 'load'::text AS provider, 'v' || ((:first + g) % :vehicles) AS vehicle_id FROM generate_series(1, :batch) g) r
JOIN vehicles v ON v.provider = r.provider AND v.vehicle_id = r.vehicle_id
FOR UPDATE OF v SKIP LOCKED;
-- The changed rows written together before the commit: every column the server sets, the
-- body and tracking at their stored sizes.
UPDATE vehicles v SET row_version = v.row_version + 1, vehicle_state = v.vehicle_state,
    latitude = v.latitude + 0.00001, longitude = v.longitude, latitude_cell = v.latitude_cell,
    longitude_cell = v.longitude_cell, body = v.body || '', tracking = v.tracking || '',
    navigator_state = v.navigator_state, navigator_route_version = v.navigator_route_version, category = v.category,
    capacity = v.capacity, trip_types = v.trip_types, on_trip = v.on_trip, attribute_text = v.attribute_text,
    located_us = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
FROM (SELECT 'v' || ((:first + g) % :vehicles) AS vehicle_id FROM generate_series(1, :batch) g) u
WHERE v.provider = 'load' AND v.vehicle_id = u.vehicle_id
RETURNING v.provider, v.vehicle_id, v.row_version;
-- Two events per update (the location, the new ETA) at their logged sizes, numbered under the
-- log head's lock, with their audience rows, and the notification the other servers listen for.
WITH head AS (
    UPDATE event_log_head SET last_id = last_id + 2 * :batch RETURNING last_id - 2 * :batch AS base
), logged AS (
    INSERT INTO events (id, time_us, provider, vehicle_id, type, data, trip_ids)
    SELECT head.base + e, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint, 'load',
        'v' || ((:first + (e + 1) / 2) % :vehicles),
        CASE WHEN e % 2 = 1 THEN 'didUpdateVehicleLocation' ELSE 'didUpdateETAToNextWaypoint' END,
        CASE WHEN e % 2 = 1
            THEN '{"location":{"latitude":37.4430200,"longitude":-122.0860012},"updateTime":"2026-11-30T18:55:05.415929Z","serverTime":"2026-11-30T18:55:05.415929Z"}'
            ELSE '{"etaToFirstWaypoint":"2026-11-30T18:55:35.265668Z","remainingTimeToFirstWaypoint":"29.85s","remainingDistanceMeters":331,"pickupTime":"2026-11-30T18:55:35.265668Z","dropoffTime":"2026-11-30T18:57:45.265668Z"}'
        END,
        't' || ((:first + (e + 1) / 2) % :vehicles)
    FROM head, generate_series(1, 2 * :batch) e
), audience AS (
    INSERT INTO event_trips (provider, trip_id, event_id)
    SELECT 'load', 't' || ((:first + (e + 1) / 2) % :vehicles), head.base + e FROM head, generate_series(1, 2 * :batch) e
)
SELECT head.base + 2 * :batch, pg_notify('tripshare_events_public', 'pgbench:' || (head.base + 2 * :batch)) FROM head;
COMMIT;
