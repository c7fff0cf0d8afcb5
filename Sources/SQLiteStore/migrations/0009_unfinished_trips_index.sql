-- Each vehicle write lists the vehicle's unfinished trips (ID and row version, oldest
-- first). trips_by_vehicle answered the WHERE but sent every match to its table row, a
-- page of its own and rarely cached, for those two columns. This index holds them, in the
-- order wanted, and starts with the same columns, so it replaces the old one for every
-- other query too. Trip rows are rarely rewritten since 0006, so keeping row_version in it
-- costs writes little.
CREATE INDEX trips_by_vehicle_unfinished ON trips (provider, vehicle_id, unfinished, id, trip_id, row_version);
DROP INDEX trips_by_vehicle;
