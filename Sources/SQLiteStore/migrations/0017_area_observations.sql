-- What the fleet's legs showed per area (TripModel.AreaObservation): for kind 0 (detour) the
-- metres driven and the metres of straight line they covered in a 0.01 degree square. Summed
-- like road_cell_paces (migration 0010): before a leg is added the sums are scaled down to a
-- bounded weight (Estimation.observationMemory), so a row follows the latest legs and never
-- grows. One row per provider, kind and area: bounded by the areas the fleet drives in. A
-- vehicle adds rows when it arrives at a stop; they are read when a vehicle that sends no
-- route heads for a new stop (and every 5 minutes).
CREATE TABLE area_observations (
    provider TEXT NOT NULL,
    kind INTEGER NOT NULL,
    area INTEGER NOT NULL,
    amount REAL NOT NULL,
    weight REAL NOT NULL,
    updated_us INTEGER NOT NULL,
    PRIMARY KEY (provider, kind, area)
) WITHOUT ROWID;
