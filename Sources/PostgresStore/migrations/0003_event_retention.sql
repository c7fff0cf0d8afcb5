-- Retention (DESIGN §11; the SQLite store's migration 0012) deletes old events in small
-- batches, so the log has a start: the greatest ID deleted. Every event after it is still
-- there; an SSE client resuming from an older ID is told that it missed events. A row of its
-- own, not a column of event_log_head, so that a deletion never waits for (nor holds up) the
-- lock every commit that logs events takes there. The newest ID ever logged stays
-- event_log_head.last_id, whatever retention deletes.
CREATE TABLE event_log_start (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    after_event bigint NOT NULL
);
INSERT INTO event_log_start (after_event) VALUES (0);

-- /readyz writes (and deletes) a row here after a storage failure, to learn whether writes
-- succeed again. Stored out of line and uncompressed, so that a probe needs new pages as the
-- log's writes do: on a full disk it fails as they do.
CREATE TABLE storage_probe (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    body bytea NOT NULL
);
ALTER TABLE storage_probe ALTER COLUMN body SET STORAGE EXTERNAL;
