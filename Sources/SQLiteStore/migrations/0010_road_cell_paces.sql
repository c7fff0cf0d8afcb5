-- The fleet's observed pace per road cell (TripModel.RoadCell: a 0.001 degree grid cell and
-- the quarter of the compass a vehicle heads into there): the metres vehicles drove in the
-- cell and the seconds they took, summed. Before a pass is added the sums are scaled down
-- to a bounded number of metres (Estimation.roadCellMemoryMeters), so a cell follows its
-- latest passes and the row never grows. One row per provider and road cell driven: the
-- table is bounded by the road network the fleet drives, not by time. A vehicle adds a row
-- once per cell it drives through (every 10-20 s at city speeds, not every location
-- update); the cells along a route are read when its route segment changes. Plain SQL: an
-- upsert with arithmetic, so every store can do the same.
CREATE TABLE road_cell_paces (
    provider TEXT NOT NULL,
    cell INTEGER NOT NULL,
    meters REAL NOT NULL,
    seconds REAL NOT NULL,
    updated_us INTEGER NOT NULL,
    PRIMARY KEY (provider, cell)
) WITHOUT ROWID;
