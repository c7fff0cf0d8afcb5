-- Each vehicle's navigation UI settings (DESIGN §9), opaque JSON to the store, with the
-- version the application gave them. A table of their own rather than a column of the
-- vehicle row: the settings change rarely and the row is rewritten on every location update.

CREATE TABLE navigation_ui_settings (
    vehicle INTEGER PRIMARY KEY REFERENCES vehicles (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    body BLOB NOT NULL
);
