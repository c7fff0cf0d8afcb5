-- A SearchVehicles request reads the vehicles of the grid cells around its pickup point
-- (vehicles_by_cell, migration 0008) and then each one's row, for its exact position and
-- its listing columns. The rows are large (the vehicle's JSON, its tracking and navigator
-- state), so fetching them was most of a search: over 10,000 vehicles, 450-580 rows read
-- for the 60 that an attribute filter keeps. The index now carries the listing columns
-- (migration 0016) too, so a filter on attributes, category, capacity, trip types or
-- current trips is evaluated on index entries, and only the vehicles that pass are read.
-- These columns change rarely: the writer still leaves the index alone while they, the
-- state and the cell stay the same.
DROP INDEX vehicles_by_cell;
CREATE INDEX vehicles_by_cell
    ON vehicles (provider, vehicle_state, latitude_cell, longitude_cell, category, capacity, trip_types, on_trip, attribute_text);
