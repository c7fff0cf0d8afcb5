-- The fleet's observed pace per road cell (TripModel.RoadCell), as in the SQLite store's
-- migration 0010: the metres vehicles drove in the cell and the seconds they took, summed,
-- scaled down before each pass is added so the row follows the latest passes and never
-- grows. One row per provider and road cell driven: bounded by the road network, not by
-- time. A pass is one upsert whose arithmetic runs on the row as locked, so two servers
-- adding to one cell at once both count. The sums change on every pass and nothing indexes
-- them: room left on each page lets PostgreSQL rewrite a row in place (a HOT update).
CREATE TABLE road_cell_paces (
    provider text NOT NULL,
    cell bigint NOT NULL,
    meters double precision NOT NULL,
    seconds double precision NOT NULL,
    updated_us bigint NOT NULL,
    PRIMARY KEY (provider, cell)
) WITH (fillfactor = 80);
