-- The server-side navigator of each routed vehicle (DESIGN §8), opaque to the store.
-- Its small moving state lives in the vehicle's row, which every vehicle write rewrites
-- anyway; its route (up to megabytes for a long route) lives apart and is written only
-- when replaced, because rewriting a row rewrites all of its overflow pages.

ALTER TABLE vehicles ADD COLUMN navigator_state BLOB;
ALTER TABLE vehicles ADD COLUMN navigator_route_version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE navigator_routes (
    vehicle INTEGER PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    body BLOB NOT NULL
);
