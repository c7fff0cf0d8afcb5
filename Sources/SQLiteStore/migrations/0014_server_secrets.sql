-- Secrets the server keeps with its data, as the PostgreSQL store does (its migration 0001):
-- the key event streams number their events with (Fleet's EventStreamIDs), so that a stream's
-- IDs survive a restart and a restored backup.
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    secret BLOB NOT NULL,
    created_time_us INTEGER NOT NULL
);
