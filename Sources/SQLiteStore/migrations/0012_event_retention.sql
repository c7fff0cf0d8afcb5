-- Retention (DESIGN §11) deletes old events in small batches, so the log has a start: the
-- greatest ID deleted. Every event after it is still there; an SSE client resuming from an
-- older ID is told that it missed events. The newest ID ever logged is the greater of this
-- and MAX(events.id), since retention may delete the newest event of an idle log.
CREATE TABLE event_log_start (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    after_event INTEGER NOT NULL
);
INSERT INTO event_log_start (id, after_event) VALUES (1, 0);

-- /readyz writes (and deletes) a row here after a storage failure, to learn whether writes
-- succeed again: on a full disk nothing else writes while the server says it is not ready.
CREATE TABLE storage_probe (
    id INTEGER PRIMARY KEY,
    body BLOB NOT NULL
);
