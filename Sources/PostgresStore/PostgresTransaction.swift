import Foundation
import JSON
import NIOCore
import PostgresNIO
import TripModel
import TripStore

/// ``TripStore/StoreTransaction`` on one connection, inside its transaction: a write batch
/// (``WriteLane``, `batch` set) or a read-only snapshot (`batch` nil).
///
/// In a write, the vehicle and trip rows a write reads it also locks (`SELECT ... FOR
/// UPDATE SKIP LOCKED`): no other process changes them until this transaction ends, so two
/// processes' updates of one vehicle (and its navigator) run one after the other and none is
/// lost. A row another transaction holds throws ``RowLocked``, and the write runs again a
/// little later rather than waiting: transactions that wait for each other's locks in
/// opposite orders would deadlock, and PostgreSQL takes a second to notice.
///
/// A location update costs no round trip of its own: its batch locks the vehicles its writes
/// name in one statement (``lockVehiclesAhead(_:)``), which also lists each vehicle's
/// unfinished trips (kept in ``WriteBatch``); their decoded rows come from the caches, and the
/// vehicle's new row is written with the batch's others before the commit.
struct PostgresTransaction: StoreTransaction {
    let connection: BlockingConnection
    let caches: DecodedRowCaches
    let batch: WriteBatch?

    private func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        do {
            return try connection.rows(query)
        } catch {
            batch?.aborted = true
            throw error
        }
    }

    private func rows(_ statement: some RowStatement) throws -> [PostgresRow] {
        do {
            return try connection.rows(statement)
        } catch {
            batch?.aborted = true
            throw error
        }
    }

    @discardableResult
    private func execute(_ query: PostgresQuery) throws -> Int {
        do {
            return try connection.execute(query)
        } catch {
            batch?.aborted = true
            throw error
        }
    }

    private func cache(_ updates: [CacheUpdate]) {
        if let batch { updates.forEach(batch.record) } else { caches.apply(updates) }
    }

    /// RowLocked when the row exists (SKIP LOCKED passed it over); nothing when it does not.
    private func checkLocked(_ exists: PostgresQuery, row: String) throws {
        guard batch != nil, !(try rows(exists)).isEmpty else { return }
        throw RowLocked(row: row)
    }

    // MARK: Vehicles

    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? {
        let key = RowReads.key(provider, id)
        if let seen = batch?.vehicles[key] { return seen }
        var cachedVersion = caches.vehicles.version(for: key) ?? -1
        while true {
            let found: [PostgresRow]
            if let batch {
                found = try rows(VehicleForWrite(provider: provider, id: id, cachedVersion: cachedVersion))
                // Only locked, the vehicle needs no rollback if this write fails: other processes
                // skip its row until the commit and try again (WriteBatch).
                if !found.isEmpty { batch.unfinishedTrips[key] = try RowReads.unfinishedTrips(found) }
            } else {
                found = try rows(VehicleRead(provider: provider, id: id, cachedVersion: cachedVersion))
            }
            switch try RowReads.vehicle(found, key: key, caches: caches) {
            case .absent:
                try checkLocked("SELECT 1 FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(id)", row: "vehicle '\(id)'")
                return nil
            case .cacheRace:
                cachedVersion = -1
            case .found(let record, let updates):
                cache(updates)
                batch?.vehicles[key] = record
                return record
            }
        }
    }

    /// Locks and reads, in one statement, the vehicles that the writes of a batch will read
    /// first (WriteLane), so that their own reads find them here. Those another transaction
    /// holds, or that do not exist, are left to the writes' own reads (which say so).
    func lockVehiclesAhead(_ vehicles: [VehicleKey]) throws {
        guard let batch else { return }
        var seen = Set<String>()
        let wanted = vehicles.filter { vehicle in
            let key = RowReads.key(vehicle.provider, vehicle.id)
            return seen.insert(key).inserted && batch.vehicles[key] == nil
        }
        // One vehicle costs the same statement either way: its write reads it.
        guard wanted.count > 1 else { return }
        let found = try rows(
            VehiclesForWrite(
                providers: wanted.map(\.provider), ids: wanted.map(\.id),
                cachedVersions: wanted.map { caches.vehicles.version(for: RowReads.key($0.provider, $0.id)) ?? -1 }))
        for row in found {
            let vehicle = try VehiclesForWrite.key(of: row)
            let key = RowReads.key(vehicle.provider, vehicle.id)
            // A cache race leaves the vehicle to its write's read (its lock is this transaction's).
            guard case .found(let record, let updates) = try RowReads.vehicle([row], key: key, caches: caches) else { continue }
            cache(updates)
            batch.vehicles[key] = record
            batch.unfinishedTrips[key] = try RowReads.unfinishedTrips([row])
        }
    }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws {
        let location = record.vehicle.lastLocation?.location
        let cell = Self.cell(of: record.vehicle)
        let columns = VehicleCriteria.Columns(record.vehicle)
        let body = try JSONCoding.encodeText(StoredRoute.body(of: record))
        let tracking = try JSONCoding.encodeText(record.tracking)
        batch?.writeNeedsRollback = true
        try execute(
            """
            INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, latitude_cell, longitude_cell,
                                  body, tracking, navigator_state, navigator_route_version, history_after_event,
                                  category, capacity, trip_types, on_trip, attribute_text, located_us)
            VALUES (\(provider), \(id), 1, \(record.vehicle.vehicleState?.rawValue), \(location?.latitude), \(location?.longitude),
                    \(cell?.latitude), \(cell?.longitude), \(body),
                    \(tracking), \(record.navigator.state.map { ByteBuffer(bytes: $0) }),
                    \(record.navigator.routeVersion), (SELECT last_id FROM event_log_head),
                    \(columns.category), \(columns.capacity), \(columns.tripTypes), \(columns.onTrip), \(columns.attributeText),
                    \(columns.locatedMicroseconds))
            """)
        // Its history starts after the events logged before it; in a write batch those get
        // their ids at commit (EventLog), which then sets history_after_event.
        if let batch {
            batch.insertedVehicles.append((provider, id, batch.events.count))
            batch.unfinishedTrips[RowReads.key(provider, id)] = []
        }
        var written = record
        written.route = try writeRoute(provider: provider, id: id, record, stored: nil)
        cache([.vehicle(RowReads.key(provider, id), 1, written)])
    }

    /// Stores the vehicle's route segment in its route row, or removes the row when it has
    /// none (migrations 0009 and 0010); only when the segment changed. The vehicle's row is this
    /// transaction's (inserted or locked), so the route row is written at once.
    private func writeRoute(provider: String, id: String, _ record: VehicleRecord, stored: VehicleRecord?) throws -> MeasuredRoute? {
        let route = record.measuredRoute
        guard StoredRoute.changed(record, from: stored) else { return route }
        if let route {
            let checkpoints = ByteBuffer(bytes: StoredRoute.checkpointBytes(route))
            try execute(
                """
                INSERT INTO vehicle_routes (vehicle, polyline, checkpoints)
                SELECT id, \(route.polyline), \(checkpoints) FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(id)
                ON CONFLICT (vehicle) DO UPDATE SET polyline = excluded.polyline, checkpoints = excluded.checkpoints
                """)
        } else {
            try execute(
                """
                DELETE FROM vehicle_routes WHERE vehicle = (SELECT id FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(id))
                """)
        }
        return route
    }

    /// In a write batch the row is written just before the commit (``WriteBatch``); its
    /// version moves then, and the caches learn it after the commit.
    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        let key = RowReads.key(provider, id)
        // The row's body leaves the route segment out: its route row keeps it (migration 0009).
        let body = try JSONStreamEncoder().encode(StoredRoute.body(of: record))
        let tracking = try JSONCoding.encodeText(record.tracking)
        guard let batch else { throw StatusError(.internal, "a vehicle was updated outside a write transaction") }
        batch.writeNeedsRollback = true
        var written = record
        written.route = try writeRoute(provider: provider, id: id, record, stored: batch.vehicles[key])
        let updates = (batch.changedVehicles[key]?.updates ?? 0) + 1
        batch.changedVehicles[key] = WriteBatch.ChangedVehicle(
            provider: provider, id: id, record: written, body: String(decoding: body, as: UTF8.self), tracking: tracking, updates: updates)
        batch.vehicles[key] = written
        return body
    }

    /// The 0.01 degree grid cell the position index files the vehicle under (migration 0001).
    static func cell(of vehicle: Vehicle) -> (latitude: Int, longitude: Int)? {
        vehicle.lastLocation?.location.map { PositionCell.of(latitude: $0.latitude, longitude: $0.longitude) }
    }

    func deleteVehicle(provider: String, id: String) throws {
        batch?.writeNeedsRollback = true
        batch?.changedVehicles[RowReads.key(provider, id)] = nil
        // The navigator route and navigation UI settings go with it (ON DELETE CASCADE).
        try execute("DELETE FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(id)")
        cache([.removeVehicle(RowReads.key(provider, id))])
    }

    // MARK: Trips

    func trip(provider: String, id: String) throws -> Trip? {
        try revisionedTrip(provider: provider, id: id)?.value
    }

    /// The trip as riders read it (live fields from its vehicle where its row says so).
    func revisionedTrip(provider: String, id: String) throws -> Revisioned<Trip>? {
        try readTrip(provider: provider, id: id, compose: true)?.trip
    }

    /// Reads (and in a write, locks) a trip row; `compose` asks for the rider's view too.
    private func readTrip(provider: String, id: String, compose: Bool) throws -> (trip: Revisioned<Trip>, row: TripRow)? {
        let key = RowReads.key(provider, id)
        if let batch, let seen = batch.trips[key], !compose || !seen.progressFromVehicle {
            return (Revisioned(value: seen.trip, revision: Revision(row: 0)), seen)
        }
        var cached = RowReads.cachedTripVersions(provider: provider, id: id, caches: caches)
        while true {
            let found: [PostgresRow]
            if batch != nil {
                found = try rows(TripForWrite(provider: provider, id: id, cachedTrip: cached.trip, cachedVehicle: cached.vehicle))
            } else {
                found = try rows(TripRead(provider: provider, id: id, cachedTrip: cached.trip, cachedVehicle: cached.vehicle))
            }
            if !found.isEmpty { batch?.writeNeedsRollback = true }
            let read = try RowReads.trip(found, provider: provider, id: id, caches: caches, compose: compose) { batch?.vehicles[$0] }
            switch read {
            case .absent:
                try checkLocked("SELECT 1 FROM trips WHERE provider = \(provider) AND trip_id = \(id)", row: "trip '\(id)'")
                return nil
            case .cacheRace:
                cached = (-1, -1)
            case .found(let value, let updates):
                cache(updates)
                batch?.trips[key] = value.row
                if batch == nil { RowReads.rememberComposed(value.trip, provider: provider, id: id, caches: caches) }
                return value
            }
        }
    }

    func insertTrip(provider: String, id: String, _ trip: Trip) throws {
        let body = try JSONCoding.encodeText(trip)
        batch?.writeNeedsRollback = true
        batch?.unfinishedTrips = [:]
        try execute(
            """
            INSERT INTO trips (provider, trip_id, row_version, vehicle_id, trip_status, unfinished, body)
            VALUES (\(provider), \(id), 1, \(trip.vehicleId), \(trip.tripStatus.rawValue), \(!trip.tripStatus.isTerminal), \(body))
            """)
        cache([.trip(RowReads.key(provider, id), 1, TripRow(trip: trip, progressFromVehicle: false))])
    }

    func updateTrip(provider: String, id: String, _ trip: Trip) throws {
        // Its status or vehicle may change: the vehicles' lists of unfinished trips are read again.
        batch?.unfinishedTrips = [:]
        try write(TripRow(trip: trip, progressFromVehicle: false), provider: provider, id: id)
    }

    /// Skips the write when the row, given the vehicle, already reads as `trip` (as the SQLite
    /// store does, and for the same reason: a location update changes only the live fields).
    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws {
        guard let stored = try readTrip(provider: provider, id: id, compose: false)?.row else { return }
        if stored.progressFromVehicle, stored.trip.withProgress(of: vehicle) == trip { return }
        let derivable = trip.withProgress(of: vehicle) == trip
        if !derivable, !stored.progressFromVehicle, stored.trip == trip { return }
        try write(TripRow(trip: trip, progressFromVehicle: derivable), provider: provider, id: id)
    }

    private func write(_ row: TripRow, provider: String, id: String) throws {
        batch?.writeNeedsRollback = true
        let updated = try rows(try RowReads.tripUpdate(provider: provider, id: id, row))
        if let version = try updated.first?.decode(Int64.self) { cache([.trip(RowReads.key(provider, id), version, row)]) }
    }

    func deleteTrip(provider: String, id: String) throws {
        batch?.writeNeedsRollback = true
        batch?.unfinishedTrips = [:]
        try execute("DELETE FROM trips WHERE provider = \(provider) AND trip_id = \(id)")
        cache([.removeTrip(RowReads.key(provider, id))])
    }

    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip] {
        let listed: [(id: String, version: Int64)]
        if let known = batch?.unfinishedTrips[RowReads.key(provider, vehicleId)] {
            listed = known
        } else {
            listed = try rows(
                """
                SELECT trip_id, row_version FROM trips WHERE provider = \(provider) AND vehicle_id = \(vehicleId) AND unfinished ORDER BY id
                """
            ).map { try $0.decode((String, Int64).self) }
        }
        // Bodies are read only for the trips whose version the cache lacks.
        var entries: [(id: String, row: TripRow?)] = []
        for (id, version) in listed {
            let key = RowReads.key(provider, id)
            let known = batch?.trips[key] ?? caches.trips.value(for: key, version: version)
            if let known { batch?.trips[key] = known }
            entries.append((id, known))
        }
        let missing = entries.filter { $0.row == nil }.map(\.id)
        var fetched: [String: TripRow] = [:]
        if !missing.isEmpty {
            let found = try rows(
                """
                SELECT trip_id, row_version, progress_from_vehicle, body FROM trips WHERE provider = \(provider) AND trip_id = ANY(\(missing))
                """)
            for row in found {
                let (id, version, progressFromVehicle, body) = try row.decode((String, Int64, Bool, String).self)
                let tripRow = TripRow(trip: try StoredRows.decode(Trip.self, body), progressFromVehicle: progressFromVehicle)
                fetched[id] = tripRow
                cache([.trip(RowReads.key(provider, id), version, tripRow)])
            }
        }
        // A trip deleted between the two statements is left out (possible only outside a write).
        let stored = entries.compactMap { $0.row ?? fetched[$0.id] }
        guard stored.contains(where: \.progressFromVehicle),
            let vehicle = try vehicleRecord(provider: provider, id: vehicleId)?.vehicle
        else { return stored.map(\.trip) }
        return stored.map { $0.progressFromVehicle ? $0.trip.withProgress(of: vehicle) : $0.trip }
    }

    // MARK: Navigator routes

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        let found = try rows(
            """
            SELECT r.body FROM navigator_routes r JOIN vehicles v ON v.id = r.vehicle
            WHERE v.provider = \(provider) AND v.vehicle_id = \(vehicleId)
            """)
        return try found.first.map { Array(try $0.decode(ByteBuffer.self).readableBytesView) }
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        batch?.writeNeedsRollback = true
        guard let route else {
            try execute(
                """
                DELETE FROM navigator_routes WHERE vehicle = (SELECT id FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(vehicleId))
                """)
            return
        }
        try execute(
            """
            INSERT INTO navigator_routes (vehicle, body)
            SELECT id, \(ByteBuffer(bytes: route)) FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(vehicleId)
            ON CONFLICT (vehicle) DO UPDATE SET body = excluded.body
            """)
    }

    // MARK: Navigation UI settings

    func navigationUISettings(provider: String, vehicleId: String) throws -> NavigationUISettingsRecord? {
        let found = try rows(
            """
            SELECT s.version, s.body FROM navigation_ui_settings s JOIN vehicles v ON v.id = s.vehicle
            WHERE v.provider = \(provider) AND v.vehicle_id = \(vehicleId)
            """)
        return try found.first.map { row in
            let (version, body) = try row.decode((Int64, ByteBuffer).self)
            return NavigationUISettingsRecord(json: Array(body.readableBytesView), version: version)
        }
    }

    /// Selected from the vehicle row, so that nothing is stored for a vehicle that does not
    /// exist. Fleet locks the vehicle first (it reads it), so one process at a time writes a
    /// vehicle's settings.
    func setNavigationUISettings(provider: String, vehicleId: String, _ settings: NavigationUISettingsRecord?) throws {
        batch?.writeNeedsRollback = true
        guard let settings else {
            try execute(
                """
                DELETE FROM navigation_ui_settings
                WHERE vehicle = (SELECT id FROM vehicles WHERE provider = \(provider) AND vehicle_id = \(vehicleId))
                """)
            return
        }
        try execute(
            """
            INSERT INTO navigation_ui_settings (vehicle, version, body)
            SELECT id, \(settings.version), \(ByteBuffer(bytes: settings.json)) FROM vehicles
            WHERE provider = \(provider) AND vehicle_id = \(vehicleId)
            ON CONFLICT (vehicle) DO UPDATE SET version = excluded.version, body = excluded.body
            """)
    }

    // MARK: Road-cell paces

    func roadCellPaces(provider: String, cells: [RoadCell]) throws -> [RoadCellPace] {
        guard !cells.isEmpty else { return [] }
        let numbers = cells.map(\.id)
        let paces = try rows(
            """
            SELECT cell, meters, seconds, updated_us FROM road_cell_paces
            WHERE provider = \(provider) AND cell = ANY(\(numbers)::bigint[])
            """
        ).map { row in
            let (cell, meters, seconds, updated) = try row.decode((Int64, Double, Double, Int64).self)
            return RoadCellPace(cell: RoadCell(id: cell), meters: meters, seconds: seconds, updated: Timestamp(microseconds: updated))
        }
        return batch?.aggregateAdditions.applied(to: paces, provider: provider, cells: cells) ?? paces
    }

    /// Kept for the end of the batch (``AggregateAddition``), where ``addAggregates()`` makes it.
    func addRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws {
        guard let batch else { return try upsertRoadCellPace(provider: provider, pace, memoryMeters: memoryMeters) }
        batch.aggregateAdditions.append(.roadCell(provider: provider, pace: pace, memoryMeters: memoryMeters))
    }

    /// One upsert: the SET expressions read the row as it was (locked by the upsert), so both
    /// sums scale alike (``RoadCellPace/adding(_:memoryMeters:)``) and a concurrent pass
    /// through the cell, from this process or another, is added after it rather than lost.
    private func upsertRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws {
        try execute(
            """
            INSERT INTO road_cell_paces AS r (provider, cell, meters, seconds, updated_us)
            VALUES (\(provider), \(pace.cell.id), \(pace.meters), \(pace.seconds), \(pace.updated.microseconds))
            ON CONFLICT (provider, cell) DO UPDATE SET
                meters = r.meters * LEAST(1.0::float8, \(memoryMeters) / GREATEST(r.meters, 1.0::float8)) + excluded.meters,
                seconds = r.seconds * LEAST(1.0::float8, \(memoryMeters) / GREATEST(r.meters, 1.0::float8)) + excluded.seconds,
                updated_us = GREATEST(r.updated_us, excluded.updated_us)
            """)
    }

    // MARK: Area observations

    func areaObservations(provider: String, areas: [Int64]) throws -> [AreaObservation] {
        guard !areas.isEmpty else { return [] }
        let observations = try rows(
            """
            SELECT kind, area, amount, weight, updated_us FROM area_observations
            WHERE provider = \(provider) AND area = ANY(\(areas)::bigint[])
            """
        ).compactMap { row in
            let (kind, area, amount, weight, updated) = try row.decode((Int32, Int64, Double, Double, Int64).self)
            return AreaObservation.Kind(rawValue: Int(kind)).map {
                AreaObservation(kind: $0, area: area, amount: amount, weight: weight, updated: Timestamp(microseconds: updated))
            }
        }
        return batch?.aggregateAdditions.applied(to: observations, provider: provider, areas: areas) ?? observations
    }

    /// Kept for the end of the batch, as ``addRoadCellPace(provider:_:memoryMeters:)``.
    func addAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws {
        guard let batch else { return try upsertAreaObservation(provider: provider, observation, memory: memory) }
        batch.aggregateAdditions.append(.area(provider: provider, observation: observation, memory: memory))
    }

    /// One upsert, as ``upsertRoadCellPace(provider:_:memoryMeters:)``
    /// (``AreaObservation/adding(_:memory:)``).
    private func upsertAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws {
        try execute(
            """
            INSERT INTO area_observations AS r (provider, kind, area, amount, weight, updated_us)
            VALUES (
                \(provider), \(Int32(observation.kind.rawValue)), \(observation.area), \(observation.amount), \(observation.weight),
                \(observation.updated.microseconds))
            ON CONFLICT (provider, kind, area) DO UPDATE SET
                amount = r.amount * LEAST(1.0::float8, \(memory) / GREATEST(r.weight, 1e-9::float8)) + excluded.amount,
                weight = r.weight * LEAST(1.0::float8, \(memory) / GREATEST(r.weight, 1e-9::float8)) + excluded.weight,
                updated_us = GREATEST(r.updated_us, excluded.updated_us)
            """)
    }

    /// Makes the batch's additions to the fleet's sums, by ``AggregateAddition/lockKey`` (the
    /// writes' own order kept where they add to one row).
    func addAggregates() throws {
        guard let batch else { return }
        let ordered = batch.aggregateAdditions.enumerated().sorted { a, b in
            let (x, y) = (a.element.lockKey, b.element.lockKey)
            return (x.table, x.provider, x.kind, x.key, a.offset) < (y.table, y.provider, y.kind, y.key, b.offset)
        }
        for (_, addition) in ordered {
            switch addition {
            case .roadCell(let provider, let pace, let memoryMeters): try upsertRoadCellPace(provider: provider, pace, memoryMeters: memoryMeters)
            case .area(let provider, let observation, let memory): try upsertAreaObservation(provider: provider, observation, memory: memory)
            }
        }
    }

    // MARK: Billable trips

    func recordBillableTrip(provider: String, tripId: String, _ record: BillableTripRecord) throws -> BillableTripRecord {
        batch?.writeNeedsRollback = true
        let body = try JSONCoding.encodeText(record)
        let inserted = try execute(
            """
            INSERT INTO billable_trips (provider, trip_id, name, reported_us, body)
            VALUES (\(provider), \(tripId), \(record.name), \(record.reportTime.microseconds), \(body))
            ON CONFLICT (provider, trip_id) DO NOTHING
            """)
        if inserted > 0 { return record }
        let kept = try rows("SELECT body FROM billable_trips WHERE provider = \(provider) AND trip_id = \(tripId)")
        guard let stored = try kept.first?.decode(String.self) else { return record }
        return try StoredRows.decode(BillableTripRecord.self, stored)
    }

    func billableTrips(since: Timestamp, after: BillableTripRecord?, limit: Int) throws -> [BillableTripRecord] {
        let found: [PostgresRow]
        if let after {
            found = try rows(
                """
                SELECT body FROM billable_trips
                WHERE reported_us >= \(since.microseconds) AND (reported_us, name) > (\(after.reportTime.microseconds), \(after.name))
                ORDER BY reported_us, name LIMIT \(limit)
                """)
        } else {
            found = try rows(
                "SELECT body FROM billable_trips WHERE reported_us >= \(since.microseconds) ORDER BY reported_us, name LIMIT \(limit)")
        }
        return try found.map { try StoredRows.decode(BillableTripRecord.self, try $0.decode(String.self)) }
    }

    /// The probe write of ``PostgresTripStore/probeWrites()``: a row of 16 KiB in
    /// storage_probe, deleted again.
    func probeStorage() throws {
        batch?.writeNeedsRollback = true
        let inserted = try rows("INSERT INTO storage_probe (body) VALUES (\(ByteBuffer(repeating: 0, count: 16_384))) RETURNING id")
        let id = try inserted.first?.decode(Int64.self) ?? 0
        try execute("DELETE FROM storage_probe WHERE id = \(id)")
    }

    // MARK: Events

    /// Buffered until the commit, which numbers them (EventLog says why there).
    func appendEvent(provider: String, _ event: NewEvent) throws {
        guard let batch else { throw StatusError(.internal, "an event was appended outside a write transaction") }
        batch.events.append((provider, event))
    }

    /// The events go with their audience rows (found from each event's trip list, through
    /// event_trips' key) in one statement, then the log's start moves up in a second: the
    /// order keeps two processes' retention from locking the same rows in opposite orders
    /// (rows another process is deleting are waited for, then skipped). The space goes back
    /// to the tables' free space when autovacuum passes, and the log's next rows take it.
    func deleteEvents(_ ids: [Int64]) throws {
        guard let greatest = ids.max() else { return }
        guard batch != nil else { throw StatusError(.internal, "events were deleted outside a write transaction") }
        batch?.writeNeedsRollback = true
        try execute(
            """
            WITH gone AS (
                DELETE FROM events WHERE id = ANY(\(ids)::bigint[]) RETURNING id, provider, trip_ids
            )
            \(unescaped: Self.deleteAudienceOfGone)
            """)
        try moveLogStart(past: greatest)
    }

    /// Deletes the audience rows of the events a `gone` CTE returned (id, provider, trip_ids).
    private static let deleteAudienceOfGone = """
        DELETE FROM event_trips a
        USING gone, LATERAL unnest(string_to_array(gone.trip_ids, ',')) AS t(trip_id)
        WHERE a.provider = gone.provider AND a.trip_id = t.trip_id AND a.event_id = gone.id
        """

    /// Moves the log's start up to `greatest`, the newest id deleted.
    private func moveLogStart(past greatest: Int64) throws {
        try execute("UPDATE event_log_start SET after_event = GREATEST(after_event, \(greatest))")
    }

    /// One statement picks the vehicle's oldest events in the range and deletes them with
    /// their audience rows, as ``deleteEvents(_:)`` does; it counts what it deleted (a row
    /// another process deleted first is skipped).
    func deleteEvents(provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> Int {
        guard limit > 0, !ids.isEmpty else { return 0 }
        guard batch != nil else { throw StatusError(.internal, "events were deleted outside a write transaction") }
        batch?.writeNeedsRollback = true
        let deleted = try rows(
            """
            WITH doomed AS (
                SELECT id FROM events
                WHERE provider = \(provider) AND vehicle_id = \(vehicleId) AND type = \(type)
                    AND id >= \(ids.lowerBound) AND id < \(ids.upperBound)
                ORDER BY id LIMIT \(limit)
            ), gone AS (
                DELETE FROM events USING doomed WHERE events.id = doomed.id RETURNING events.id, events.provider, events.trip_ids
            ), audience AS (
                \(unescaped: Self.deleteAudienceOfGone)
            )
            SELECT count(*)::bigint, max(id) FROM gone
            """)
        guard let row = deleted.first else { return 0 }
        let (count, greatest) = try row.decode((Int64, Int64?).self)
        if let greatest { try moveLogStart(past: greatest) }
        return Int(count)
    }
}
