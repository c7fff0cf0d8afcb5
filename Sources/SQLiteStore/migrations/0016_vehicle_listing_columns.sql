-- ListVehicles and SearchVehicles filter on what a vehicle is (issue 31): its category,
-- capacity, trip types, whether it has trips and its attributes, and on when its last
-- location arrived. These columns hold them as TripModel's VehicleCriteria.Columns computes
-- them (attribute_text: one searchable string, AttributeCondition.indexText); the body stays
-- the source of truth. Migrations.swift fills them for the vehicles already stored.
--
-- The index holds the listing columns beside (provider, vehicle_id), so a listing walks it in
-- page order and counts its matches (totalSize) without reading a single vehicle row, whose
-- body would otherwise be read past. A location update leaves it alone: it writes
-- located_us, which is not indexed, and the listing columns only when one changed.
ALTER TABLE vehicles ADD COLUMN category TEXT;
ALTER TABLE vehicles ADD COLUMN capacity INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vehicles ADD COLUMN trip_types INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vehicles ADD COLUMN on_trip INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vehicles ADD COLUMN attribute_text TEXT NOT NULL DEFAULT '';
ALTER TABLE vehicles ADD COLUMN located_us INTEGER;
CREATE INDEX vehicles_for_listing
    ON vehicles (provider, vehicle_id, vehicle_state, category, capacity, trip_types, on_trip, attribute_text);
