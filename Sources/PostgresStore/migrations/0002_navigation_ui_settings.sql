-- Each vehicle's navigation UI settings (DESIGN §9), as in the SQLite store's migration 0011:
-- opaque JSON to the store with the version the application gave them, in a table of their
-- own because they change rarely and the vehicle row is rewritten on every location update.
-- They go with their vehicle (ON DELETE CASCADE).

CREATE TABLE navigation_ui_settings (
    vehicle bigint PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    version bigint NOT NULL,
    body bytea NOT NULL
);
