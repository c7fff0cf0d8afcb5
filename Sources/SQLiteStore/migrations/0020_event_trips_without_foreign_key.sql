-- Deleting an event made SQLite look for the event_trips rows that still referred to it (the
-- foreign key of migrations 0001 and 0005), and no index of event_trips starts with
-- event_id: every deleted event scanned the whole table. Retention deletes 256 events per
-- write, so with 100,000 links one write took about 2 s on the writer, and location updates
-- waited behind it: 4-6 a second where 800 were sent (Benchmarks/Load/retention_soak.py
-- --navigate). The store deletes an event's links before the event, in the same transaction
-- (SQLiteTransaction.deleteEvents), and PostgreSQL's schema never had this key; so the key
-- goes, rather than a second index that every logged event would pay for.
CREATE TABLE event_trips_unchecked (
    block INTEGER NOT NULL,
    provider TEXT NOT NULL,
    trip_id TEXT NOT NULL,
    event_id INTEGER NOT NULL,
    PRIMARY KEY (block, provider, trip_id, event_id)
) WITHOUT ROWID;
INSERT INTO event_trips_unchecked (block, provider, trip_id, event_id)
    SELECT block, provider, trip_id, event_id FROM event_trips ORDER BY block, provider, trip_id, event_id;
DROP TABLE event_trips;
ALTER TABLE event_trips_unchecked RENAME TO event_trips;
