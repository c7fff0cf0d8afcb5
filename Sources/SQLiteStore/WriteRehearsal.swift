import TripModel
import TripStore

/// A location update worked out on the caller's thread, from the decoded rows the store keeps
/// in memory, before the writer sees it: the writer then only checks that the rows it used
/// are still at the versions it used, and runs the statements it encoded.
///
/// SQLite has one writer, and under load it was the bottleneck: some 170 µs of each update
/// ran on it, most of it Fleet's refresh and the JSON of the rows, not SQL (issues 29-31).
/// Rehearsed on the event loops, which run on both cores, that work no longer waits its
/// turn. The result is the serial one: a write whose rows changed in between (another
/// update of the same vehicle, a trip's new status) is run again on the writer as before,
/// which ``TripStore/writeTransaction(_:)`` allows ("a store may run `body` more than once").
///
/// It reads no SQLite: a read transaction of its own cost more than the work it moved (its
/// locks, and a page cache SQLite empties whenever the database changed). So only what a
/// location update does, on rows the caches hold, is rehearsed; anything else (a row not
/// cached, inserting or deleting rows, the navigator's route, the fleet's paces, which other
/// vehicles change all the time) abandons the rehearsal and the write runs on the writer.
///
/// Handed from the rehearsing thread to the writer once, and never used by both at once:
/// hence `@unchecked Sendable`.
final class WriteRehearsal: StoreTransaction, @unchecked Sendable {
    /// Thrown by what a rehearsal cannot do; the write then runs on the writer.
    struct Abandoned: Error {}

    /// A vehicle's or a trip's row.
    private struct RowKey: Hashable {
        let provider: String
        let id: String
        var text: String { provider + "/" + id }
    }

    private let caches: DecodedRowCaches
    private let unfinishedTripLists: UnfinishedTripLists
    /// Rows used, at the version the caches held.
    private var vehicleVersions: [RowKey: Int64] = [:]
    /// Each vehicle's unfinished trips as last seen by the writer.
    private var unfinishedTrips: [RowKey: [SQLiteTransaction.TripVersion]] = [:]
    /// Rows as they now stand in this write (used or written), as ``WriteState`` keeps them.
    private var vehicles: [RowKey: VehicleRecord] = [:]
    private var trips: [RowKey: TripRow] = [:]
    private var navigatorRoutes: [RowKey: [UInt8]?] = [:]
    private var wroteTrip = false
    /// The statements the writer runs, in order.
    private var steps: [(SQLiteTransaction) throws -> Void] = []

    init(caches: DecodedRowCaches, unfinishedTripLists: UnfinishedTripLists) {
        self.caches = caches
        self.unfinishedTripLists = unfinishedTripLists
    }

    /// Whether every row the rehearsal read is still as it read it, in the writer's transaction.
    func holds(in tx: SQLiteTransaction) throws -> Bool {
        for (key, version) in vehicleVersions where try tx.vehicleVersion(provider: key.provider, id: key.id) != version {
            return false
        }
        for (key, versions) in unfinishedTrips where try tx.unfinishedTripVersions(provider: key.provider, vehicleId: key.id) != versions {
            return false
        }
        return true
    }

    /// Runs the rehearsed statements in the writer's transaction.
    func replay(in tx: SQLiteTransaction) throws {
        for step in steps { try step(tx) }
    }

    /// The vehicle's unfinished trips once replayed, when the rehearsal knows them: it read
    /// them, and wrote none.
    func unfinishedTripsAfterReplay(provider: String, vehicleId: String) -> [SQLiteTransaction.TripVersion]? {
        wroteTrip ? nil : unfinishedTrips[RowKey(provider: provider, id: vehicleId)]
    }

    // MARK: Reads

    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? {
        let key = RowKey(provider: provider, id: id)
        if let seen = vehicles[key] { return seen }
        guard let (version, record) = caches.vehicles.latest(for: key.text) else { throw Abandoned() }
        vehicleVersions[key] = version
        vehicles[key] = record
        return record
    }

    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip] {
        // Which trips are unfinished may be what this write changed.
        if wroteTrip { throw Abandoned() }
        let key = RowKey(provider: provider, id: vehicleId)
        // The trips' live fields may come from the vehicle: its version is checked too.
        guard let vehicle = try vehicleRecord(provider: provider, id: vehicleId)?.vehicle else { throw Abandoned() }
        if unfinishedTrips[key] == nil {
            // Which trips: as the writer last saw them; each at the version the caches hold,
            // which a write of the trip alone (a new status) has moved since.
            guard let listed = unfinishedTripLists.list(of: key.text) else { throw Abandoned() }
            unfinishedTrips[key] = try listed.map { trip in
                let tripKey = RowKey(provider: provider, id: trip.id)
                guard let (version, row) = caches.trips.latest(for: tripKey.text) else { throw Abandoned() }
                trips[tripKey] = row
                return SQLiteTransaction.TripVersion(id: trip.id, version: version)
            }
        }
        return try (unfinishedTrips[key] ?? []).map { listed in
            guard let row = trips[RowKey(provider: provider, id: listed.id)] else { throw Abandoned() }
            return row.progressFromVehicle ? row.trip.withProgress(of: vehicle) : row.trip
        }
    }

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        guard let written = navigatorRoutes[RowKey(provider: provider, id: vehicleId)] else { throw Abandoned() }
        return written
    }

    func trip(provider: String, id: String) throws -> Trip? { throw Abandoned() }
    func navigationUISettings(provider: String, vehicleId: String) throws -> NavigationUISettingsRecord? { throw Abandoned() }
    // Other vehicles add to these all the time: read them on the writer, where they are current.
    func roadCellPaces(provider: String, cells: [RoadCell]) throws -> [RoadCellPace] { throw Abandoned() }
    func areaObservations(provider: String, areas: [Int64]) throws -> [AreaObservation] { throw Abandoned() }
    func billableTrips(since: Timestamp, after: BillableTripRecord?, limit: Int) throws -> [BillableTripRecord] { throw Abandoned() }

    // MARK: Writes

    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        let key = RowKey(provider: provider, id: id)
        let update = try SQLiteTransaction.vehicleUpdate(provider: provider, id: id, record, stored: vehicles[key])
        steps.append { try $0.apply(update) }
        vehicles[key] = update.written
        return update.body
    }

    func updateTrip(provider: String, id: String, _ trip: Trip) throws {
        try write(TripRow(trip: trip, progressFromVehicle: false), provider: provider, id: id)
    }

    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws {
        guard let row = SQLiteTransaction.progressRow(trip, vehicle: vehicle, stored: try tripRow(provider: provider, id: id)) else { return }
        try write(row, provider: provider, id: id)
    }

    func appendEvent(provider: String, _ event: NewEvent) throws {
        steps.append { try $0.appendEvent(provider: provider, event) }
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        steps.append { try $0.setNavigatorRoute(provider: provider, vehicleId: vehicleId, route) }
        navigatorRoutes[RowKey(provider: provider, id: vehicleId)] = .some(route)
    }

    func addRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws {
        steps.append { try $0.addRoadCellPace(provider: provider, pace, memoryMeters: memoryMeters) }
    }

    func addAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws {
        steps.append { try $0.addAreaObservation(provider: provider, observation, memory: memory) }
    }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws { throw Abandoned() }
    func deleteVehicle(provider: String, id: String) throws { throw Abandoned() }
    func insertTrip(provider: String, id: String, _ trip: Trip) throws { throw Abandoned() }
    func deleteTrip(provider: String, id: String) throws { throw Abandoned() }
    func deleteEvents(_ ids: [Int64]) throws { throw Abandoned() }
    func deleteEvents(provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> Int { throw Abandoned() }
    func setNavigationUISettings(provider: String, vehicleId: String, _ settings: NavigationUISettingsRecord?) throws { throw Abandoned() }
    func recordBillableTrip(provider: String, tripId: String, _ record: BillableTripRecord) throws -> BillableTripRecord {
        throw Abandoned()
    }

    // MARK: Trip rows

    /// The trip's row as this write has it: one of the unfinished trips it listed.
    private func tripRow(provider: String, id: String) throws -> TripRow {
        guard let row = trips[RowKey(provider: provider, id: id)] else { throw Abandoned() }
        return row
    }

    private func write(_ row: TripRow, provider: String, id: String) throws {
        let write = try SQLiteTransaction.tripWrite(row, provider: provider, id: id)
        steps.append { try $0.apply(write) }
        trips[RowKey(provider: provider, id: id)] = row
        wroteTrip = true
    }
}
