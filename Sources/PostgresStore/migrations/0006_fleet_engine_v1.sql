-- The whole Fleet Engine v1 surface (issue 31), as in the SQLite store's migration 0014.
--
-- Billable trips (ReportBillableTrip): one row per provider and trip, the first report kept,
-- read by `tripshare billing export` in report order.
CREATE TABLE billable_trips (
    provider text COLLATE "C" NOT NULL,
    trip_id text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    reported_us bigint NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (provider, trip_id)
);
CREATE INDEX billable_trips_by_report ON billable_trips (reported_us, name);

-- `heading` is an int32 in Fleet Engine: fractions are refused now, and official clients
-- cannot read the ones stored before. Rounded in place (jsonb rewrites the row's spacing and
-- key order, which nothing depends on).
UPDATE vehicles SET body = jsonb_set(body::jsonb, '{lastLocation,heading}', to_jsonb(round((body::jsonb #>> '{lastLocation,heading}')::numeric)::int))::text
WHERE jsonb_typeof(body::jsonb #> '{lastLocation,heading}') = 'number'
    AND (body::jsonb #>> '{lastLocation,heading}')::numeric <> round((body::jsonb #>> '{lastLocation,heading}')::numeric);
UPDATE trips SET body = jsonb_set(body::jsonb, '{lastLocation,heading}', to_jsonb(round((body::jsonb #>> '{lastLocation,heading}')::numeric)::int))::text
WHERE jsonb_typeof(body::jsonb #> '{lastLocation,heading}') = 'number'
    AND (body::jsonb #>> '{lastLocation,heading}')::numeric <> round((body::jsonb #>> '{lastLocation,heading}')::numeric);
UPDATE events SET data = jsonb_set(data::jsonb, '{heading}', to_jsonb(round((data::jsonb #>> '{heading}')::numeric)::int))::text
WHERE type = 'didUpdateVehicleLocation' AND jsonb_typeof(data::jsonb #> '{heading}') = 'number'
    AND (data::jsonb #>> '{heading}')::numeric <> round((data::jsonb #>> '{heading}')::numeric);
