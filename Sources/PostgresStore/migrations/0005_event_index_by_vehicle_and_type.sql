-- Retention's head pass (EventLogTrimmer) looks up the first location of each moved
-- vehicle's history, its 1,000th newest, and deletes the vehicle's locations below it (the
-- SQLite store's migration 0013). On events_by_vehicle each of those 1,000 entries needs its
-- table row for the event's type: 1,000 heap pages and 5.6 ms a vehicle on a log of 330,000
-- events (300 vehicles). This index answers from itself: 13 pages and 0.5 ms.
--
-- The cost: one more index entry per event logged with a vehicle. Inserting 30,000 such
-- events in one statement took about 4 µs more per event (some 7 -> 11 µs, on a busy
-- machine).
CREATE INDEX events_by_vehicle_and_type ON events (provider, vehicle_id, type, id) WHERE vehicle_id IS NOT NULL;
