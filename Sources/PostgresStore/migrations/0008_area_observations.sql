-- What the fleet's legs showed per area (TripModel.AreaObservation), as in the SQLite store's
-- migration 0017: for kind 0 (detour) the metres driven and the metres of straight line they
-- covered in a 0.01 degree square. Summed like road_cell_paces: the
-- sums are scaled down before each leg is added, so a row follows the latest legs and never
-- grows; one upsert whose arithmetic runs on the row as locked, so two servers adding at once
-- both count. Room left on each page lets PostgreSQL rewrite a row in place (a HOT update).
CREATE TABLE area_observations (
    provider text NOT NULL,
    kind integer NOT NULL,
    area bigint NOT NULL,
    amount double precision NOT NULL,
    weight double precision NOT NULL,
    updated_us bigint NOT NULL,
    PRIMARY KEY (provider, kind, area)
) WITH (fillfactor = 80);
