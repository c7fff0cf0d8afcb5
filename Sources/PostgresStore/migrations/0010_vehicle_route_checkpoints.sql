-- A route's checkpoints instead of a distance per vertex (issue 30; the SQLite store's
-- migration 0021): a location update whose vehicle a cache had let go read the whole route row
-- (some 260 KB at 20,000 points) and decoded every vertex. The route's row keeps, beside its
-- polyline, every 64th point's byte offset, scaled coordinates and distance along the route
-- (StoredRoute.checkpointBytes), from which an update decodes only the stretch around the
-- vehicle. PostgresMigrations measures the routes already stored again to fill the column.
ALTER TABLE vehicle_routes RENAME COLUMN cumulative TO checkpoints;
