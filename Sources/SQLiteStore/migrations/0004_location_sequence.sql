-- The location history numbers its rows from its own primary key (MAX(seq) + 1 per
-- vehicle), so the counter in the vehicle row is gone: keeping it meant rewriting the
-- large vehicle row a second time on every location update.
ALTER TABLE vehicles DROP COLUMN location_seq;
