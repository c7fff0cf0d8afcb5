-- A location update changes a trip only in its live fields, the ones derived from the
-- vehicle (remaining waypoints and their paths, ETAs, the vehicle's position and route).
-- Rewriting the trip's JSON for them took about a fifth of the writer's time, so the store
-- may keep the row as it was and mark it: with progress_from_vehicle = 1 readers take those
-- fields from the vehicle row (Trip.withProgress(of:)). The writer marks a row only after
-- checking that this reads back exactly as the trip it derived; rows written before this
-- migration are read as they are.
ALTER TABLE trips ADD COLUMN progress_from_vehicle INTEGER NOT NULL DEFAULT 0;

-- A rider's read now looks up two rows, the trip and its vehicle. This index answers the
-- trip's part by itself (its entries are small, so its pages stay in SQLite's cache, where
-- the trip rows, one per page, do not); trip rows are rarely rewritten now, so keeping it
-- costs little.
CREATE INDEX trips_for_riders ON trips (provider, trip_id, row_version, progress_from_vehicle, vehicle_id);
