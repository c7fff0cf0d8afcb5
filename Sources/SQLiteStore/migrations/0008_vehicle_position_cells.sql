-- The index of vehicle positions (for SearchVehicles) held the exact latitude and
-- longitude, so every location update moved the vehicle's entry: one more B-tree page read,
-- rewritten and checkpointed per update, 8-16% of the PUT lastLocation throughput. It now
-- holds a coarse grid cell of 0.01 degree (PositionCell), which a vehicle leaves about once
-- a minute at city speeds; the writer leaves the index alone while the cell and the state
-- stay the same, and a search filters the cells' vehicles by their exact position.
ALTER TABLE vehicles ADD COLUMN latitude_cell INTEGER;
ALTER TABLE vehicles ADD COLUMN longitude_cell INTEGER;
-- The same arithmetic as PositionCell: non-negative, so CAST's truncation is floor.
UPDATE vehicles SET latitude_cell = CAST((latitude + 90) * 100 AS INTEGER),
                    longitude_cell = CAST((longitude + 180) * 100 AS INTEGER)
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
DROP INDEX vehicles_by_position;
CREATE INDEX vehicles_by_cell ON vehicles (provider, vehicle_state, latitude_cell, longitude_cell);
