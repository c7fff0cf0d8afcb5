-- ListVehicles answers totalSize, how many vehicles meet the request on every page, and
-- counting 10,000 entries of the listing index against a filter costs milliseconds, most of
-- a listing's time (issue 31). The count changes only when a vehicle comes, goes or changes
-- one of its listing columns, which location updates leave alone (migration 0016). This
-- version is bumped whenever that happens, by triggers, so a server keeps a count until the
-- version moves, and a second process on the same file bumps it too.
CREATE TABLE listing_version (version INTEGER NOT NULL);
INSERT INTO listing_version (version) VALUES (0);
CREATE TRIGGER listing_version_after_insert AFTER INSERT ON vehicles
    BEGIN UPDATE listing_version SET version = version + 1; END;
CREATE TRIGGER listing_version_after_delete AFTER DELETE ON vehicles
    BEGIN UPDATE listing_version SET version = version + 1; END;
CREATE TRIGGER listing_version_after_update
    AFTER UPDATE OF provider, vehicle_id, vehicle_state, category, capacity, trip_types, on_trip, attribute_text ON vehicles
    BEGIN UPDATE listing_version SET version = version + 1; END;
