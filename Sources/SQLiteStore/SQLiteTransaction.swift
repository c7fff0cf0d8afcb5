import Foundation
import GRDB
import JSON
import TripModel
import TripStore

/// ``TripStore/StoreTransaction`` on one GRDB database connection, inside its transaction.
struct SQLiteTransaction: StoreTransaction {
    let db: Database
    let caches: DecodedRowCaches
    /// In a write transaction, what the write has read and changed so far.
    let write: WriteState?

    static func encode(_ value: some Encodable) throws -> String {
        try JSONCoding.encodeText(value)
    }

    private func cache(_ update: CacheUpdate) {
        if let write { write.record(update) } else { caches.apply([update]) }
    }

    /// Reads a vehicle, decoding it only when the cache lacks its current version. The
    /// version is read first, alone: copying a body out of SQLite costs more than the read
    /// when the decoded row is cached, which under load it nearly always is.
    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? {
        let key = provider + "/" + id
        if let seen = write?.vehicles[key] { return seen }
        guard let current = try vehicleVersion(provider: provider, id: id) else { return nil }
        if let cached = caches.vehicles.value(for: key, version: current) {
            write?.vehicles[key] = cached
            return cached
        }
        let statement = try db.cachedStatement(
            sql: """
                SELECT v.row_version, v.body, v.tracking, v.navigator_state, v.navigator_route_version,
                       r.polyline AS route_polyline, r.checkpoints AS route_checkpoints
                FROM vehicles v LEFT JOIN vehicle_routes r ON r.vehicle = v.id
                WHERE v.provider = ? AND v.vehicle_id = ?
                """)
        guard let row = try Row.fetchOne(statement, arguments: [provider, id]) else { return nil }
        return try decodeVehicle(row, key: key)
    }

    /// The vehicle's row version, nil when there is no such vehicle.
    func vehicleVersion(provider: String, id: String) throws -> Int64? {
        let versionOnly = try db.cachedStatement(sql: "SELECT row_version FROM vehicles WHERE provider = ? AND vehicle_id = ?")
        return try Int64.fetchOne(versionOnly, arguments: [provider, id])
    }

    /// Decodes and caches a vehicle from a row with the columns `row_version`, `body`,
    /// `tracking`, `navigator_state`, `navigator_route_version` and its route row's
    /// `route_polyline` and `route_checkpoints` (migrations 0018 and 0021).
    private func decodeVehicle(_ row: Row, key: String) throws -> VehicleRecord {
        let version: Int64 = row["row_version"]
        let state: Data? = row["navigator_state"]
        var vehicle = try StoredRows.decode(Vehicle.self, row["body"])
        let tracking = try StoredRows.decode(RouteTracking.self, row["tracking"])
        let checkpoints: Data? = row["route_checkpoints"]
        let route = StoredRoute.attach(polyline: row["route_polyline"], checkpoints: checkpoints, to: &vehicle, tracking: tracking)
        let record = VehicleRecord(
            vehicle: vehicle,
            tracking: tracking,
            navigator: NavigatorRecord(
                state: state.map { [UInt8]($0) },
                routeVersion: row["navigator_route_version"]),
            route: route)
        cache(.vehicle(key, version, record))
        return record
    }

    /// What becomes of a vehicle's route row (migration 0018) when the vehicle is saved.
    enum RouteRowChange {
        case unchanged
        case set(polyline: String, checkpoints: Data)
        case remove
    }

    /// The vehicle's route segment goes to its route row only when the segment changed.
    private static func routeRowChange(_ record: VehicleRecord, stored: VehicleRecord?) -> RouteRowChange {
        guard StoredRoute.changed(record, from: stored) else { return .unchanged }
        guard let route = record.measuredRoute else { return .remove }
        return .set(polyline: route.polyline, checkpoints: Data(StoredRoute.checkpointBytes(route)))
    }

    /// Stores the vehicle's route segment in its route row, or removes the row when it has none.
    private func writeRoute(provider: String, id: String, _ change: RouteRowChange) throws {
        let vehicle = "(SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)"
        switch change {
        case .unchanged: return
        case .set(let polyline, let checkpoints):
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO vehicle_routes (vehicle, polyline, checkpoints) VALUES (\(vehicle), ?, ?)")
                .execute(arguments: [provider, id, polyline, checkpoints])
        case .remove:
            try db.cachedStatement(sql: "DELETE FROM vehicle_routes WHERE vehicle = \(vehicle)").execute(arguments: [provider, id])
        }
    }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO vehicles (provider, vehicle_id, row_version, vehicle_state, latitude, longitude, latitude_cell, longitude_cell,
                                      body, tracking, navigator_state, navigator_route_version, history_after_event,
                                      category, capacity, trip_types, on_trip, attribute_text, located_us)
                VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(id), 0) FROM events), ?, ?, ?, ?, ?, ?)
                """)
        let location = record.vehicle.lastLocation?.location
        let cell = Self.cell(of: record.vehicle)
        let columns = VehicleCriteria.Columns(record.vehicle)
        try statement.execute(arguments: [
            provider, id, record.vehicle.vehicleState?.rawValue, location?.latitude,
            location?.longitude, cell?.latitude, cell?.longitude,
            try Self.encode(StoredRoute.body(of: record)), try Self.encode(record.tracking),
            record.navigator.state.map { Data($0) }, record.navigator.routeVersion,
            columns.category, columns.capacity, columns.tripTypes, columns.onTrip, columns.attributeText, columns.locatedMicroseconds,
        ])
        var written = record
        written.route = record.measuredRoute
        try writeRoute(provider: provider, id: id, Self.routeRowChange(record, stored: nil))
        cache(.vehicle(provider + "/" + id, 1, written))
    }

    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        let update = try Self.vehicleUpdate(provider: provider, id: id, record, stored: write?.vehicles[provider + "/" + id])
        try apply(update)
        return update.body
    }

    /// A vehicle's save, with everything encoded: what ``apply(_:)-(VehicleUpdate)`` runs.
    struct VehicleUpdate {
        let provider: String
        let id: String
        /// Which of ``vehicleUpdates`` runs, with its arguments.
        let statement: Int
        let arguments: StatementArguments
        let route: RouteRowChange
        /// The record as it will be stored, with its measured route.
        let written: VehicleRecord
        /// The row's body as JSON.
        let body: [UInt8]
    }

    /// Encodes a vehicle's save; `stored` is the vehicle as this write read it (nil when it did not).
    static func vehicleUpdate(provider: String, id: String, _ record: VehicleRecord, stored: VehicleRecord?) throws -> VehicleUpdate {
        let location = record.vehicle.lastLocation?.location
        // The row's body leaves the route segment out: its route row keeps it (migrations 0018 and 0021).
        let body = try JSONStreamEncoder().encode(StoredRoute.body(of: record))
        var arguments: StatementArguments = [
            location?.latitude, location?.longitude, String(decoding: body, as: UTF8.self),
            try Self.encode(record.tracking), record.navigator.state.map { Data($0) },
            record.navigator.routeVersion, record.vehicle.lastLocation?.serverTime?.microseconds,
        ]
        // Leaving the indexed columns out of the statement leaves their indexes untouched, and
        // the listing's columns out, its version (migration 0019's triggers): a vehicle that only
        // moved to another grid cell must not make every server count its listings again.
        let cellMayDiffer = stored.map { Self.cell(of: $0.vehicle) != Self.cell(of: record.vehicle) } ?? true
        let listingMayDiffer =
            stored.map {
                $0.vehicle.vehicleState != record.vehicle.vehicleState || VehicleCriteria.Columns.listingMayDiffer($0.vehicle, record.vehicle)
            } ?? true
        if cellMayDiffer {
            let cell = Self.cell(of: record.vehicle)
            arguments += [cell?.latitude, cell?.longitude]
        }
        if listingMayDiffer {
            let columns = VehicleCriteria.Columns(record.vehicle)
            arguments += [
                record.vehicle.vehicleState?.rawValue, columns.category, columns.capacity, columns.tripTypes, columns.onTrip,
                columns.attributeText,
            ]
        }
        arguments += [provider, id]
        var written = record
        written.route = record.measuredRoute
        return VehicleUpdate(
            provider: provider, id: id, statement: (cellMayDiffer ? 1 : 0) + (listingMayDiffer ? 2 : 0), arguments: arguments,
            route: routeRowChange(record, stored: stored), written: written, body: body)
    }

    /// Runs an encoded vehicle save.
    func apply(_ update: VehicleUpdate) throws {
        try writeRoute(provider: update.provider, id: update.id, update.route)
        let statement = try db.cachedStatement(sql: Self.vehicleUpdates[update.statement])
        let version = try Int64.fetchOne(statement, arguments: update.arguments)
        if let version { cache(.vehicle(update.provider + "/" + update.id, version, update.written)) }
    }

    /// A vehicle's UPDATE statements, by what they set beside the row's body: [plain, with the
    /// grid cell, with the listing's columns, with both] (see `updateVehicle`).
    private static let vehicleUpdates: [String] = [false, true].flatMap { listing in
        [false, true].map { cell in
            "UPDATE vehicles SET row_version = row_version + 1, latitude = ?, longitude = ?, body = ?, tracking = ?, "
                + "navigator_state = ?, navigator_route_version = ?, located_us = ?"
                + (cell ? ", latitude_cell = ?, longitude_cell = ?" : "")
                + (listing ? ", vehicle_state = ?, category = ?, capacity = ?, trip_types = ?, on_trip = ?, attribute_text = ?" : "")
                + " WHERE provider = ? AND vehicle_id = ? RETURNING row_version"
        }
    }

    /// The grid cell the position index files the vehicle under (migration 0008).
    private static func cell(of vehicle: Vehicle) -> PositionCell? {
        vehicle.lastLocation?.location.map { PositionCell(latitude: $0.latitude, longitude: $0.longitude) }
    }

    func deleteVehicle(provider: String, id: String) throws {
        for table in ["navigator_routes", "navigation_ui_settings", "vehicle_routes"] {
            try db.execute(
                sql: "DELETE FROM \(table) WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)",
                arguments: [provider, id])
        }
        try db.execute(sql: "DELETE FROM vehicles WHERE provider = ? AND vehicle_id = ?", arguments: [provider, id])
        cache(.removeVehicle(provider + "/" + id))
    }

    func trip(provider: String, id: String) throws -> Trip? {
        try revisionedTrip(provider: provider, id: id)?.value
    }

    /// Reads a trip as riders see it: the row, with its live fields from the vehicle row
    /// when the row is marked so (see ``updateTripProgress(provider:id:_:vehicle:)``).
    /// Versions are read first and bodies decoded only on a cache miss, like
    /// ``vehicleRecord(provider:id:)``; each statement joins the two rows, so even outside
    /// a transaction the trip and its vehicle come from one snapshot.
    func revisionedTrip(provider: String, id: String) throws -> Revisioned<Trip>? {
        let lookup = try trip(provider: provider, id: id, known: { (_: Revision) -> Never? in nil }, keepComposed: true)
        guard case .read(let trip) = lookup else { return nil }
        return trip
    }

    /// What `known` keeps for the trip's current revision, read from the versions alone, or
    /// else the trip as ``revisionedTrip(provider:id:)`` reads it. A trip composed with its
    /// vehicle is kept for the next reader only with `keepComposed`: a caller that keeps what
    /// it derives from the trip (a view cache) is asked first next time, and keeping the trip
    /// as well doubled what a rider's read put in the cache pool, pushing out the views
    /// (issue 30). `versionsRead` hears the versions of a trip whose live fields come from its
    /// vehicle: the trip's row, the vehicle's key (`provider/id`) and its row.
    func trip<Known>(
        provider: String, id: String, known: (Revision) -> Known?, keepComposed: Bool,
        versionsRead: ((_ trip: Int64, _ vehicleKey: String, _ vehicle: Int64) -> Void)? = nil
    ) throws -> TripLookup<Known>? {
        let key = provider + "/" + id
        let versions = try db.cachedStatement(sql: "SELECT t.row_version, t.vehicle_id, v.row_version " + Self.tripWithVehicle)
        guard let current = try Row.fetchOne(versions, arguments: [provider, id]) else { return nil }
        let tripVersion: Int64 = current[0]
        let vehicleVersion: Int64? = current[2]
        if let versionsRead, let vehicleVersion, let vehicleId: String = current[1] {
            versionsRead(tripVersion, provider + "/" + vehicleId, vehicleVersion)
        }
        // The vehicle's version is read only where the trip's live fields come from it: the
        // revision a full read below gives.
        if let found = known(Revision(row: tripVersion, vehicleRow: vehicleVersion ?? 0)) { return .known(found) }
        if let vehicleVersion, let composed = caches.composedTrips.value(for: key, version: vehicleVersion),
            composed.revision.row == tripVersion
        {
            return .read(composed)
        }
        if let cached = caches.trips.value(for: key, version: tripVersion) {
            guard cached.progressFromVehicle else { return .read(Revisioned(value: cached.trip, revision: Revision(row: tripVersion))) }
            if let vehicleId: String = current[1], let vehicleVersion,
                let vehicle = caches.vehicles.value(for: provider + "/" + vehicleId, version: vehicleVersion)
            {
                return .read(
                    composed(
                        cached.trip, key: key, vehicle: vehicle.vehicle, revision: Revision(row: tripVersion, vehicleRow: vehicleVersion),
                        keep: keepComposed))
            }
        }
        let bodies = try db.cachedStatement(
            sql: """
                SELECT t.row_version AS trip_version, t.progress_from_vehicle, t.body AS trip_body, t.vehicle_id,
                       v.row_version, v.body, v.tracking,
                       (SELECT polyline FROM vehicle_routes WHERE vehicle = v.id) AS route_polyline,
                       (SELECT checkpoints FROM vehicle_routes WHERE vehicle = v.id) AS route_checkpoints
                """ + " " + Self.tripWithVehicle)
        guard let row = try Row.fetchOne(bodies, arguments: [provider, id]) else { return nil }
        let version: Int64 = row["trip_version"]
        let progressFromVehicle: Bool = row["progress_from_vehicle"]
        guard progressFromVehicle, let vehicleId: String = row["vehicle_id"], let vehicleVersion: Int64 = row["row_version"] else {
            let stored = TripRow(trip: try StoredRows.decode(Trip.self, row["trip_body"]), progressFromVehicle: progressFromVehicle)
            cache(.trip(key, version, stored))
            return .read(Revisioned(value: stored.trip, revision: Revision(row: version)))
        }
        // Composed with its vehicle, which gives every live field: the trip's row is decoded
        // without them, so it is not kept (``ComposedTripRows``).
        let trip = try ComposedTripRows.trip(body: row["trip_body"])
        let vehicleKey = provider + "/" + vehicleId
        let vehicle = try caches.vehicles.value(for: vehicleKey, version: vehicleVersion, { $0.vehicle }) ?? riderVehicle(row)
        return .read(
            composed(trip, key: key, vehicle: vehicle, revision: Revision(row: version, vehicleRow: vehicleVersion), keep: keepComposed))
    }

    /// The vehicle as a rider's trip shows it (``ComposedTripRows/vehicle(body:tracking:polyline:checkpoints:)``),
    /// from a row with the columns `body`, `tracking` and its route row's `route_polyline` and
    /// `route_checkpoints`. Not cached: the decoded-vehicle cache keeps whole records, for updates.
    private func riderVehicle(_ row: Row) throws -> Vehicle {
        let checkpoints: Data? = row["route_checkpoints"]
        return try ComposedTripRows.vehicle(
            body: row["body"], tracking: row["tracking"], polyline: row["route_polyline"], checkpoints: checkpoints)
    }

    /// A trip and, when its row is marked so, its vehicle. The planner would take the unique
    /// index over `trips_for_riders`, which alone answers the trip's part of a versions read.
    private static let tripWithVehicle = """
        FROM trips t INDEXED BY trips_for_riders
        LEFT JOIN vehicles v ON t.progress_from_vehicle AND v.provider = t.provider AND v.vehicle_id = t.vehicle_id
        WHERE t.provider = ? AND t.trip_id = ?
        """

    /// The trip with its live fields from the vehicle; with `keep`, kept for the next reader
    /// of the same revision: riders poll far more often than their vehicle reports.
    private func composed(_ trip: Trip, key: String, vehicle: Vehicle, revision: Revision, keep: Bool) -> Revisioned<Trip> {
        let composed = Revisioned(value: trip.withProgress(of: vehicle), revision: revision)
        if keep, write == nil { caches.composedTrips.store(composed, for: key, version: revision.vehicleRow) }
        return composed
    }

    /// Reads a trip's row as stored, decoding it only on a cache miss; `version` is the row's
    /// current version when the caller has just read it.
    private func tripRow(provider: String, id: String, version: Int64? = nil) throws -> TripRow? {
        let key = provider + "/" + id
        if let seen = write?.trips[key] { return seen }
        let versionOnly = try db.cachedStatement(sql: "SELECT row_version FROM trips WHERE provider = ? AND trip_id = ?")
        guard let current = try version ?? Int64.fetchOne(versionOnly, arguments: [provider, id]) else { return nil }
        if let cached = caches.trips.value(for: key, version: current) {
            write?.trips[key] = cached
            return cached
        }
        let statement = try db.cachedStatement(sql: "SELECT row_version, progress_from_vehicle, body FROM trips WHERE provider = ? AND trip_id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [provider, id]) else { return nil }
        let stored = TripRow(trip: try StoredRows.decode(Trip.self, row["body"]), progressFromVehicle: row["progress_from_vehicle"])
        cache(.trip(key, row["row_version"], stored))
        return stored
    }

    func insertTrip(provider: String, id: String, _ trip: Trip) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO trips (provider, trip_id, row_version, vehicle_id, trip_status, unfinished, body) VALUES (?, ?, 1, ?, ?, ?, ?)
                """)
        try statement.execute(arguments: [
            provider, id, trip.vehicleId, trip.tripStatus.rawValue,
            !trip.tripStatus.isTerminal, try Self.encode(trip),
        ])
        cache(.trip(provider + "/" + id, 1, TripRow(trip: trip, progressFromVehicle: false)))
    }

    func updateTrip(provider: String, id: String, _ trip: Trip) throws {
        try write(TripRow(trip: trip, progressFromVehicle: false), provider: provider, id: id)
    }

    /// Skips the write when the row, given the vehicle, already reads as `trip`: a location
    /// update changes only the live fields, and rewriting the trip's JSON for them took about
    /// a fifth of the writer's time. A row is marked to be read that way only when that gives
    /// exactly `trip` (not for a trip without stops whose first leg carries traffic, say).
    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws {
        guard let stored = try tripRow(provider: provider, id: id),
            let row = Self.progressRow(trip, vehicle: vehicle, stored: stored)
        else { return }
        try write(row, provider: provider, id: id)
    }

    /// The row ``updateTripProgress(provider:id:_:vehicle:)`` writes over `stored`, nil when
    /// it skips the write.
    static func progressRow(_ trip: Trip, vehicle: Vehicle, stored: TripRow) -> TripRow? {
        if stored.progressFromVehicle, stored.trip.withProgress(of: vehicle) == trip { return nil }
        let derivable = trip.withProgress(of: vehicle) == trip
        if !derivable, !stored.progressFromVehicle, stored.trip == trip { return nil }
        return TripRow(trip: trip, progressFromVehicle: derivable)
    }

    private func write(_ row: TripRow, provider: String, id: String) throws {
        try apply(try Self.tripWrite(row, provider: provider, id: id))
    }

    /// A trip's save, with its body encoded: what ``apply(_:)-(TripWrite)`` runs.
    struct TripWrite {
        let key: String
        let row: TripRow
        let arguments: StatementArguments
    }

    static func tripWrite(_ row: TripRow, provider: String, id: String) throws -> TripWrite {
        let trip = row.trip
        return TripWrite(
            key: provider + "/" + id, row: row,
            arguments: [
                trip.vehicleId, trip.tripStatus.rawValue, !trip.tripStatus.isTerminal,
                try Self.encode(row.storedTrip), row.progressFromVehicle, provider, id,
            ])
    }

    /// Runs an encoded trip save.
    func apply(_ write: TripWrite) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE trips SET row_version = row_version + 1, vehicle_id = ?, trip_status = ?, unfinished = ?, body = ?,
                    progress_from_vehicle = ?
                WHERE provider = ? AND trip_id = ? RETURNING row_version
                """)
        let version = try Int64.fetchOne(statement, arguments: write.arguments)
        if let version { cache(.trip(write.key, version, write.row)) }
    }

    func deleteTrip(provider: String, id: String) throws {
        try db.execute(sql: "DELETE FROM trips WHERE provider = ? AND trip_id = ?", arguments: [provider, id])
        cache(.removeTrip(provider + "/" + id))
    }

    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip] {
        let rows = try unfinishedTripVersions(provider: provider, vehicleId: vehicleId).compactMap {
            try tripRow(provider: provider, id: $0.id, version: $0.version)
        }
        guard rows.contains(where: \.progressFromVehicle) else { return rows.map(\.trip) }
        guard let vehicle = try vehicleRecord(provider: provider, id: vehicleId)?.vehicle else { return rows.map(\.trip) }
        return rows.map { $0.progressFromVehicle ? $0.trip.withProgress(of: vehicle) : $0.trip }
    }

    /// The IDs and row versions of the vehicle's unfinished trips, in creation order.
    func unfinishedTripVersions(provider: String, vehicleId: String) throws -> [TripVersion] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT trip_id, row_version FROM trips WHERE provider = ? AND vehicle_id = ? AND unfinished = 1 ORDER BY id
                """)
        return try Row.fetchAll(statement, arguments: [provider, vehicleId]).map { TripVersion(id: $0["trip_id"], version: $0["row_version"]) }
    }

    /// A trip's ID with the version of its row.
    struct TripVersion: Equatable, Sendable {
        let id: String
        let version: Int64
    }

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT body FROM navigator_routes WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)
                """)
        return try Data.fetchOne(statement, arguments: [provider, vehicleId]).map { [UInt8]($0) }
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        let vehicle = "(SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)"
        guard let route else {
            try db.execute(sql: "DELETE FROM navigator_routes WHERE vehicle = \(vehicle)", arguments: [provider, vehicleId])
            return
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO navigator_routes (vehicle, body) VALUES (\(vehicle), ?)",
            arguments: [provider, vehicleId, Data(route)])
    }

    func navigationUISettings(provider: String, vehicleId: String) throws -> NavigationUISettingsRecord? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT version, body FROM navigation_ui_settings
                WHERE vehicle = (SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)
                """)
        guard let row = try Row.fetchOne(statement, arguments: [provider, vehicleId]) else { return nil }
        let body: Data = row["body"]
        return NavigationUISettingsRecord(json: [UInt8](body), version: row["version"])
    }

    func setNavigationUISettings(provider: String, vehicleId: String, _ settings: NavigationUISettingsRecord?) throws {
        let vehicle = "(SELECT id FROM vehicles WHERE provider = ? AND vehicle_id = ?)"
        guard let settings else {
            try db.execute(sql: "DELETE FROM navigation_ui_settings WHERE vehicle = \(vehicle)", arguments: [provider, vehicleId])
            return
        }
        // Selected from the vehicle, so that nothing is stored for a vehicle that does not exist.
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO navigation_ui_settings (vehicle, version, body)
                SELECT id, ?, ? FROM vehicles WHERE provider = ? AND vehicle_id = ?
                """,
            arguments: [settings.version, Data(settings.json), provider, vehicleId])
    }

    func roadCellPaces(provider: String, cells: [RoadCell]) throws -> [RoadCellPace] {
        guard !cells.isEmpty else { return [] }
        // One statement for any number of cells: their numbers as a JSON array.
        let statement = try db.cachedStatement(
            sql: """
                SELECT cell, meters, seconds, updated_us FROM road_cell_paces
                WHERE provider = ? AND cell IN (SELECT value FROM json_each(?))
                """)
        let numbers = "[" + cells.map { String($0.id) }.joined(separator: ",") + "]"
        return try Row.fetchAll(statement, arguments: [provider, numbers]).map { row in
            RoadCellPace(
                cell: RoadCell(id: row["cell"]), meters: row["meters"], seconds: row["seconds"],
                updated: Timestamp(microseconds: row["updated_us"]))
        }
    }

    func addRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws {
        // In an UPDATE every expression reads the row as it was, so both sums scale alike.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO road_cell_paces (provider, cell, meters, seconds, updated_us) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (provider, cell) DO UPDATE SET
                    meters = meters * MIN(1.0, ?6 / MAX(meters, 1.0)) + excluded.meters,
                    seconds = seconds * MIN(1.0, ?6 / MAX(meters, 1.0)) + excluded.seconds,
                    updated_us = MAX(updated_us, excluded.updated_us)
                """)
        try statement.execute(arguments: [provider, pace.cell.id, pace.meters, pace.seconds, pace.updated.microseconds, memoryMeters])
    }

    func areaObservations(provider: String, areas: [Int64]) throws -> [AreaObservation] {
        guard !areas.isEmpty else { return [] }
        let statement = try db.cachedStatement(
            sql: """
                SELECT kind, area, amount, weight, updated_us FROM area_observations
                WHERE provider = ? AND area IN (SELECT value FROM json_each(?))
                """)
        let numbers = "[" + areas.map { String($0) }.joined(separator: ",") + "]"
        return try Row.fetchAll(statement, arguments: [provider, numbers]).compactMap { row in
            guard let kind = AreaObservation.Kind(rawValue: row["kind"]) else { return nil }
            return AreaObservation(
                kind: kind, area: row["area"], amount: row["amount"], weight: row["weight"], updated: Timestamp(microseconds: row["updated_us"]))
        }
    }

    func addAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws {
        // As in addRoadCellPace, every expression of the UPDATE reads the row as it was.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO area_observations (provider, kind, area, amount, weight, updated_us) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                ON CONFLICT (provider, kind, area) DO UPDATE SET
                    amount = amount * MIN(1.0, ?7 / MAX(weight, 1e-9)) + excluded.amount,
                    weight = weight * MIN(1.0, ?7 / MAX(weight, 1e-9)) + excluded.weight,
                    updated_us = MAX(updated_us, excluded.updated_us)
                """)
        try statement.execute(arguments: [
            provider, observation.kind.rawValue, observation.area, observation.amount, observation.weight,
            observation.updated.microseconds, memory,
        ])
    }

    func appendEvent(provider: String, _ event: NewEvent) throws {
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO events (time_us, provider, vehicle_id, type, data, trip_ids) VALUES (?, ?, ?, ?, ?, ?)
                """)
        try insert.execute(arguments: [
            event.time.microseconds, provider, event.vehicleId, event.type, event.data,
            event.tripIds.joined(separator: ","),
        ])
        let id = db.lastInsertedRowID
        let audience = try db.cachedStatement(sql: "INSERT INTO event_trips (block, provider, trip_id, event_id) VALUES (?, ?, ?, ?)")
        for tripId in event.tripIds { try audience.execute(arguments: [EventBlocks.block(of: id), provider, tripId, id]) }
    }
}

extension SQLiteTransaction {
    /// Deletes each event with its audience rows (one seek each: the audience key starts with
    /// the event's block), then moves the log's start. The freed pages go to SQLite's free
    /// list, and the log's next pages are taken from there: the file stops growing.
    func deleteEvents(_ ids: [Int64]) throws {
        guard let greatest = ids.max() else { return }
        let read = try db.cachedStatement(sql: "SELECT provider, trip_ids FROM events WHERE id = ?")
        let audience = try db.cachedStatement(
            sql: "DELETE FROM event_trips WHERE block = ? AND provider = ? AND trip_id = ? AND event_id = ?")
        let delete = try db.cachedStatement(sql: "DELETE FROM events WHERE id = ?")
        for id in ids {
            guard let row = try Row.fetchOne(read, arguments: [id]) else { continue }
            let provider: String = row["provider"]
            let tripIds: String = row["trip_ids"]
            for tripId in tripIds.split(separator: ",") {
                try audience.execute(arguments: [EventBlocks.block(of: id), provider, String(tripId), id])
            }
            try delete.execute(arguments: [id])
        }
        try db.cachedStatement(sql: "UPDATE event_log_start SET after_event = MAX(after_event, ?)").execute(arguments: [greatest])
    }

    func deleteEvents(provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> Int {
        guard limit > 0, !ids.isEmpty else { return 0 }
        let doomed = try EventBlocks.oldestIDs(db, provider: provider, vehicleId: vehicleId, type: type, ids: ids, limit: limit)
        try deleteEvents(doomed)
        return doomed.count
    }
}

/// What one write has read and changed so far, kept until its transaction ends.
final class WriteState {
    /// Cache updates, applied once the transaction has committed: a rolled-back write must
    /// never reach the cache.
    private(set) var cacheUpdates: [CacheUpdate] = []
    /// Rows this write has read or written, as they now stand in its transaction, so reading
    /// them again takes no statement (a location update reads its vehicle three times and
    /// each of its trips twice). Nothing else writes them while this write runs: the writes
    /// sharing a transaction run one after another.
    var vehicles: [String: VehicleRecord] = [:]
    var trips: [String: TripRow] = [:]

    func record(_ update: CacheUpdate) {
        cacheUpdates.append(update)
        switch update {
        case .vehicle(let key, _, let record): vehicles[key] = record
        case .trip(let key, _, let row): trips[key] = row
        case .removeVehicle(let key): vehicles[key] = nil
        case .removeTrip(let key): trips[key] = nil
        }
    }
}
