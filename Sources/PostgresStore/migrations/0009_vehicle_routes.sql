-- A vehicle's route segment apart from its row (issue 30; the SQLite store's migration 0018):
-- every location update rewrites the vehicle's row, and with the route inside its body a
-- 20,000-point route (some 100 KB of polyline) was encoded, sent and written again on each
-- update. The route's row holds the polyline and its cumulative distances along it
-- (little-endian doubles, one per vertex, measured once), written only when the segment
-- changes; the vehicle's body is stored without its currentRouteSegment and reads put it
-- back. PostgresMigrations moves the routes already stored out of the bodies.
CREATE TABLE vehicle_routes (
    vehicle bigint PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    polyline text NOT NULL,
    cumulative bytea NOT NULL
);
