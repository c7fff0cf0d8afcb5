-- Vehicles, trips, location history and the event log (DESIGN §5).
-- Resources are stored as their JSON (the model's coding) beside the columns that
-- queries filter and sort on; the JSON is the source of truth.

CREATE TABLE vehicles (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL,
    vehicle_id TEXT NOT NULL,
    row_version INTEGER NOT NULL,
    vehicle_state TEXT,
    latitude REAL,
    longitude REAL,
    body TEXT NOT NULL,
    tracking TEXT NOT NULL,
    location_seq INTEGER NOT NULL DEFAULT 0,
    UNIQUE (provider, vehicle_id)
);
CREATE INDEX vehicles_by_position ON vehicles (provider, vehicle_state, latitude, longitude);

CREATE TABLE trips (
    id INTEGER PRIMARY KEY,
    provider TEXT NOT NULL,
    trip_id TEXT NOT NULL,
    row_version INTEGER NOT NULL,
    vehicle_id TEXT,
    trip_status TEXT NOT NULL,
    unfinished INTEGER NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (provider, trip_id)
);
CREATE INDEX trips_by_vehicle ON trips (provider, vehicle_id, unfinished);

-- A bounded history per vehicle (the store keeps the newest 1,000).
CREATE TABLE vehicle_locations (
    vehicle INTEGER NOT NULL REFERENCES vehicles (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (vehicle, seq)
) WITHOUT ROWID;

-- Append-only: AUTOINCREMENT guarantees ids are never reused, so SSE clients can resume.
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time_us INTEGER NOT NULL,
    provider TEXT NOT NULL,
    vehicle_id TEXT,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    trip_ids TEXT NOT NULL
);
CREATE INDEX events_by_vehicle ON events (provider, vehicle_id, id);

-- Which trips' riders may see an event.
CREATE TABLE event_trips (
    provider TEXT NOT NULL,
    trip_id TEXT NOT NULL,
    event_id INTEGER NOT NULL REFERENCES events (id),
    PRIMARY KEY (provider, trip_id, event_id)
) WITHOUT ROWID;
