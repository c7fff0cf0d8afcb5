-- Style changes made over the API (DESIGN §6). The files in styles/ are the read-only bases;
-- a row holds what was set over its base as JSON (NULL once the style's changes were
-- deleted) and a version that every change bumps, so preview ETags never repeat.
CREATE TABLE styles (
    name TEXT PRIMARY KEY,
    overrides TEXT,
    version INTEGER NOT NULL,
    update_time_us INTEGER NOT NULL
) WITHOUT ROWID;
