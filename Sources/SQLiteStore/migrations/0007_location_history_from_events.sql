-- Every location update already appends its location to the event log
-- (didUpdateVehicleLocation), so the separate history table held a second copy of each.
-- Writing that copy cost about a third of the PUT lastLocation throughput: each insert
-- landed in its vehicle's own page of the table, a page that was rarely in SQLite's cache
-- and had to be read, rewritten and copied back by the checkpoint. The history is now
-- read from the log (EventBlocks.newest).
--
-- history_after_event is the newest event id when the vehicle was created: a vehicle
-- deleted and created again under the same ID starts with an empty history. Vehicles that
-- exist now start from the beginning of the log; the location they were created with, if
-- any, is not in the log and leaves their history with this migration.
ALTER TABLE vehicles ADD COLUMN history_after_event INTEGER NOT NULL DEFAULT 0;
DROP TABLE vehicle_locations;
