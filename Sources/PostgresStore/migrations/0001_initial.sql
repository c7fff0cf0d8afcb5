-- tripshare on PostgreSQL (DESIGN §2, §11): the same data as the SQLite store, for several
-- server processes sharing one database. Resources are stored as their JSON (the model's
-- coding) beside the columns that queries filter and sort on; the JSON is the source of
-- truth. Each row carries a version that moves only when the row is written, so every
-- process checks its caches against the database (PostgresCaches). Identifiers sort and
-- compare byte by byte (COLLATE "C"), as in the other stores, whatever the database's locale.

CREATE TABLE vehicles (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider text COLLATE "C" NOT NULL,
    vehicle_id text COLLATE "C" NOT NULL,
    row_version bigint NOT NULL,
    vehicle_state text,
    latitude double precision,
    longitude double precision,
    -- The 0.01 degree grid cell of the position (as in the SQLite store's migration 0008):
    -- an update that stays in its cell leaves the index alone.
    latitude_cell integer,
    longitude_cell integer,
    body text NOT NULL,
    tracking text NOT NULL,
    -- The navigator's moving state, opaque to the store; its route lives in navigator_routes.
    navigator_state bytea,
    navigator_route_version bigint NOT NULL DEFAULT 0,
    -- The newest event id when the vehicle was created: its location history (read from
    -- the event log) starts after it.
    history_after_event bigint NOT NULL DEFAULT 0,
    UNIQUE (provider, vehicle_id)
);
CREATE INDEX vehicles_by_cell ON vehicles (provider, vehicle_state, latitude_cell, longitude_cell);

CREATE TABLE trips (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    provider text COLLATE "C" NOT NULL,
    trip_id text COLLATE "C" NOT NULL,
    row_version bigint NOT NULL,
    vehicle_id text COLLATE "C",
    trip_status text NOT NULL,
    unfinished boolean NOT NULL,
    -- The live fields in body may be stale: read them from the vehicle row (as in the
    -- SQLite store's migration 0006), so a location update need not rewrite its trips.
    progress_from_vehicle boolean NOT NULL DEFAULT false,
    body text NOT NULL,
    UNIQUE (provider, trip_id)
);
CREATE INDEX trips_unfinished_by_vehicle ON trips (provider, vehicle_id, id) WHERE unfinished;
CREATE INDEX trips_by_trip_id ON trips (trip_id);

CREATE TABLE navigator_routes (
    vehicle bigint PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    body bytea NOT NULL
);

-- The append-only event log. Ids are handed out from event_log_head inside the committing
-- transaction, under that row's lock, so they are in commit order across processes (see
-- EventLog.swift): a plain sequence is not.
CREATE TABLE events (
    id bigint PRIMARY KEY,
    time_us bigint NOT NULL,
    provider text COLLATE "C" NOT NULL,
    vehicle_id text COLLATE "C",
    type text NOT NULL,
    data text NOT NULL,
    trip_ids text NOT NULL
);
CREATE INDEX events_by_vehicle ON events (provider, vehicle_id, id) WHERE vehicle_id IS NOT NULL;

-- Which trips' riders may see an event.
CREATE TABLE event_trips (
    provider text COLLATE "C" NOT NULL,
    trip_id text COLLATE "C" NOT NULL,
    event_id bigint NOT NULL,
    PRIMARY KEY (provider, trip_id, event_id)
);

-- One row: the id of the newest event committed.
CREATE TABLE event_log_head (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_id bigint NOT NULL
);
INSERT INTO event_log_head (last_id) VALUES (0);

-- Style changes made over the API (DESIGN §6), as in the SQLite store.
CREATE TABLE styles (
    name text COLLATE "C" PRIMARY KEY,
    overrides text,
    version bigint NOT NULL,
    update_time_us bigint NOT NULL
);

-- Secrets every server process shares: the token signing key (DESIGN §4), created by the
-- first process that needs it.
CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    secret bytea NOT NULL,
    created_time_us bigint NOT NULL
);
