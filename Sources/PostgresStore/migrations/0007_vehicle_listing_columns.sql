-- ListVehicles and SearchVehicles filter on what a vehicle is (issue 31): its category,
-- capacity, trip types, whether it has trips and its attributes, and on when its last
-- location arrived (the SQLite store's migration 0014). These columns hold them as
-- TripModel's VehicleCriteria.Columns computes them (attribute_text: one searchable string,
-- AttributeCondition.indexText); the body stays the source of truth.
-- PostgresMigrations fills them for the vehicles already stored.
ALTER TABLE vehicles ADD COLUMN category text COLLATE "C";
ALTER TABLE vehicles ADD COLUMN capacity integer NOT NULL DEFAULT 0;
ALTER TABLE vehicles ADD COLUMN trip_types integer NOT NULL DEFAULT 0;
ALTER TABLE vehicles ADD COLUMN on_trip boolean NOT NULL DEFAULT false;
ALTER TABLE vehicles ADD COLUMN attribute_text text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE vehicles ADD COLUMN located_us bigint;
