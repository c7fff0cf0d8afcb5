-- A vehicle's route segment apart from its row (issue 30): every location update rewrites the
-- vehicle's row, and with the route inside its body a 20,000-point route (some 100 KB of
-- polyline) was encoded and written again on each update. The route's row holds the polyline
-- and its cumulative distances along it (little-endian doubles, one per vertex, measured
-- once), written only when the segment changes; the vehicle's body is stored without its
-- currentRouteSegment and reads put it back. Migrations.swift moves the routes already
-- stored out of the bodies.
CREATE TABLE vehicle_routes (
    vehicle INTEGER PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    polyline TEXT NOT NULL,
    cumulative BLOB NOT NULL
);
