-- The whole Fleet Engine v1 surface (issue 31).
--
-- Billable trips (ReportBillableTrip): one row per provider and trip, the first report kept,
-- read by `tripshare billing export` in report order.
CREATE TABLE billable_trips (
    provider TEXT NOT NULL,
    trip_id TEXT NOT NULL,
    name TEXT NOT NULL,
    reported_us INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (provider, trip_id)
) WITHOUT ROWID;
CREATE INDEX billable_trips_by_report ON billable_trips (reported_us, name);

-- `heading` is an int32 in Fleet Engine: fractions are refused now, and official clients
-- cannot read the ones stored before. Rounded in place (vehicles, the trips that copy their
-- location, the location history in the event log).
UPDATE vehicles SET body = json_set(body, '$.lastLocation.heading', CAST(round(json_extract(body, '$.lastLocation.heading')) AS INTEGER))
WHERE json_type(body, '$.lastLocation.heading') = 'real';
UPDATE trips SET body = json_set(body, '$.lastLocation.heading', CAST(round(json_extract(body, '$.lastLocation.heading')) AS INTEGER))
WHERE json_type(body, '$.lastLocation.heading') = 'real';
UPDATE events SET data = json_set(data, '$.heading', CAST(round(json_extract(data, '$.heading')) AS INTEGER))
WHERE type = 'didUpdateVehicleLocation' AND json_type(data, '$.heading') = 'real';
