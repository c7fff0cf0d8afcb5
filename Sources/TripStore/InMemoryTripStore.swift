import Geo
import Synchronization
import TripModel

/// A store in memory, for tests and offline tools: dictionaries behind a lock. A write works
/// on a copy that replaces the state only when the write succeeds, so a failed write leaves
/// nothing behind, and writes run one at a time.
package final class InMemoryTripStore: TripStore {
    struct Key: Hashable {
        var provider: String
        var id: String
    }

    struct State: Sendable {
        var vehicles: [Key: VehicleRecord] = [:]
        var trips: [Key: (order: Int, revision: Int64, trip: Trip)] = [:]
        var nextTripOrder = 0
        var nextRevision: Int64 = 1
        /// The newest event's ID when each vehicle was created: its history starts after it.
        var historyStarts: [Key: Int64] = [:]
        var events: [StoredEvent] = []
        /// The newest event ID ever logged (deleted events keep their IDs from being reused).
        var lastEventID: Int64 = 0
        /// The greatest ID retention deleted: the log is whole after it.
        var logStart: Int64 = 0
        var navigatorRoutes: [Key: [UInt8]] = [:]
        var navigationUISettings: [Key: NavigationUISettingsRecord] = [:]
        var roadCells: [RoadCellKey: RoadCellPace] = [:]
        var areaObservations: [AreaKey: AreaObservation] = [:]
        var billableTrips: [Key: BillableTripRecord] = [:]
    }

    struct RoadCellKey: Hashable {
        var provider: String
        var cell: RoadCell
    }

    struct AreaKey: Hashable {
        var provider: String
        var kind: AreaObservation.Kind
        var area: Int64
    }

    private let state = Mutex(State())
    /// Style changes (InMemoryTripStore+Styles.swift).
    let styles = StyleRecords()
    /// Memory does not fill up the way a disk does: always healthy.
    package let health = StoreHealth()

    /// Creates an empty store.
    package init() {}

    package func writeTransaction(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws {
        try state.withLock { state in
            let tx = MemoryTransaction(state: state)
            try body(tx)
            state = tx.state
        }
    }

    package func readSnapshot(_ body: @escaping @Sendable (any StoreReader) throws -> Void) async throws {
        try body(MemoryTransaction(state: snapshot { $0 }))
    }

    private func snapshot<T>(_ body: (State) throws -> T) rethrows -> T {
        try state.withLock { state in try body(state) }
    }

    package func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>? {
        snapshot { $0.trips[Key(provider: provider, id: id)] }.map { Revisioned(value: $0.trip, revision: Revision(row: $0.revision)) }
    }

    package func listVehicles(provider: String, criteria: VehicleCriteria, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter() ?? ""
        let (vehicles, total) = snapshot { state in
            let matching = state.vehicles.filter { $0.key.provider == provider && criteria.matches($0.value.vehicle) }
            return (matching.filter { $0.key.id > after }.sorted { $0.key.id < $1.key.id }.map(\.value.vehicle), matching.count)
        }
        return Page.of(vehicles, size: page.pageSize, totalSize: total) { ResourceName.lastComponent(of: $0.name) }
    }

    package func searchVehicles(provider: String, criteria: VehicleCriteria) async throws -> [VehicleWithTrips] {
        snapshot { state in
            state.vehicles.filter { $0.key.provider == provider && criteria.matches($0.value.vehicle) }
                .sorted { $0.key.id < $1.key.id }
                .map { key, record in
                    let trips = record.vehicle.currentTrips.isEmpty ? [] : MemoryTransaction.unfinishedTrips(in: state, key)
                    return VehicleWithTrips(vehicle: record.vehicle, unfinishedTrips: trips)
                }
        }
    }

    package func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip> {
        let after = try query.page.startAfter() ?? ""
        let trips = snapshot { state in
            state.trips.filter { key, entry in
                key.provider == provider && key.id > after
                    && (query.vehicleId == nil || entry.trip.vehicleId == query.vehicleId)
                    && (!query.activeTripsOnly || !entry.trip.tripStatus.isTerminal)
            }.sorted { $0.key.id < $1.key.id }.map(\.value.trip)
        }
        return Page.of(trips, size: query.page.pageSize) { $0.tripId }
    }

    package func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        snapshot { state in Array(state.events.lazy.filter { $0.id > afterID && filter.matches($0) }.prefix(limit)) }
    }

    package func latestEventID() async throws -> Int64 { snapshot { $0.lastEventID } }

    package func eventLogStart() async throws -> Int64 { snapshot { $0.logStart } }

    /// Nothing to probe: a write here fails only by the caller's fault.
    package func probeWrites() async throws {}

    package func newestEvents(provider: String, vehicleId: String, type: String, limit: Int) async throws -> [StoredEvent] {
        snapshot { state -> [StoredEvent] in
            guard let start = state.historyStarts[Key(provider: provider, id: vehicleId)] else { return [] }
            return Array(
                state.events.lazy.filter {
                    $0.id > start && $0.provider == provider && $0.vehicleId == vehicleId && $0.type == type
                }.suffix(limit))
        }
    }

    package func newestEventsFirstID(provider: String, vehicleId: String, type: String, limit: Int) async throws -> Int64? {
        snapshot { state -> Int64? in
            guard limit > 0, let start = state.historyStarts[Key(provider: provider, id: vehicleId)] else { return nil }
            var first: Int64?
            var count = 0
            for event in state.events.reversed() where event.provider == provider && event.vehicleId == vehicleId && event.type == type {
                guard event.id > start else { break }
                first = event.id
                count += 1
                if count == limit { break }
            }
            return first
        }
    }
}

/// ``StoreTransaction`` over a copy of the in-memory state.
final class MemoryTransaction: StoreTransaction {
    typealias Key = InMemoryTripStore.Key
    var state: InMemoryTripStore.State

    init(state: InMemoryTripStore.State) { self.state = state }

    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? { state.vehicles[Key(provider: provider, id: id)] }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws {
        state.vehicles[Key(provider: provider, id: id)] = record
        state.historyStarts[Key(provider: provider, id: id)] = state.lastEventID
    }

    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        state.vehicles[Key(provider: provider, id: id)] = record
        return nil
    }

    func deleteVehicle(provider: String, id: String) throws {
        state.vehicles[Key(provider: provider, id: id)] = nil
        state.historyStarts[Key(provider: provider, id: id)] = nil
        state.navigatorRoutes[Key(provider: provider, id: id)] = nil
        state.navigationUISettings[Key(provider: provider, id: id)] = nil
    }

    func trip(provider: String, id: String) throws -> Trip? { state.trips[Key(provider: provider, id: id)]?.trip }

    func insertTrip(provider: String, id: String, _ trip: Trip) throws {
        state.trips[Key(provider: provider, id: id)] = (state.nextTripOrder, state.nextRevision, trip)
        state.nextRevision += 1
        state.nextTripOrder += 1
    }

    func updateTrip(provider: String, id: String, _ trip: Trip) throws {
        let key = Key(provider: provider, id: id)
        state.trips[key] = (state.trips[key]?.order ?? state.nextTripOrder, state.nextRevision, trip)
        state.nextRevision += 1
    }

    /// Trips here are kept whole: saved whenever they changed.
    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws {
        if state.trips[Key(provider: provider, id: id)]?.trip != trip { try updateTrip(provider: provider, id: id, trip) }
    }

    func deleteTrip(provider: String, id: String) throws { state.trips[Key(provider: provider, id: id)] = nil }

    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip] {
        Self.unfinishedTrips(in: state, Key(provider: provider, id: vehicleId))
    }

    static func unfinishedTrips(in state: InMemoryTripStore.State, _ vehicle: Key) -> [Trip] {
        state.trips.filter { key, entry in
            key.provider == vehicle.provider && entry.trip.vehicleId == vehicle.id && !entry.trip.tripStatus.isTerminal
        }.sorted { $0.value.order < $1.value.order }.map(\.value.trip)
    }

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        state.navigatorRoutes[Key(provider: provider, id: vehicleId)]
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        state.navigatorRoutes[Key(provider: provider, id: vehicleId)] = route
    }

    func navigationUISettings(provider: String, vehicleId: String) throws -> NavigationUISettingsRecord? {
        state.navigationUISettings[Key(provider: provider, id: vehicleId)]
    }

    func setNavigationUISettings(provider: String, vehicleId: String, _ settings: NavigationUISettingsRecord?) throws {
        let key = Key(provider: provider, id: vehicleId)
        guard state.vehicles[key] != nil else { return }
        state.navigationUISettings[key] = settings
    }

    func roadCellPaces(provider: String, cells: [RoadCell]) throws -> [RoadCellPace] {
        cells.compactMap { state.roadCells[InMemoryTripStore.RoadCellKey(provider: provider, cell: $0)] }
    }

    func addRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws {
        let key = InMemoryTripStore.RoadCellKey(provider: provider, cell: pace.cell)
        state.roadCells[key] = state.roadCells[key].map { $0.adding(pace, memoryMeters: memoryMeters) } ?? pace
    }

    func areaObservations(provider: String, areas: [Int64]) throws -> [AreaObservation] {
        AreaObservation.Kind.allCases.flatMap { kind in
            areas.compactMap { state.areaObservations[InMemoryTripStore.AreaKey(provider: provider, kind: kind, area: $0)] }
        }
    }

    func addAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws {
        let key = InMemoryTripStore.AreaKey(provider: provider, kind: observation.kind, area: observation.area)
        state.areaObservations[key] = state.areaObservations[key].map { $0.adding(observation, memory: memory) } ?? observation
    }

    func appendEvent(provider: String, _ event: NewEvent) throws {
        state.lastEventID += 1
        let id = state.lastEventID
        state.events.append(
            StoredEvent(
                id: id, time: event.time, provider: provider, vehicleId: event.vehicleId,
                tripIds: event.tripIds, type: event.type, data: event.data))
    }

    func deleteEvents(_ ids: [Int64]) throws {
        guard let greatest = ids.max() else { return }
        let doomed = Set(ids)
        state.events.removeAll { doomed.contains($0.id) }
        state.logStart = max(state.logStart, greatest)
    }

    func deleteEvents(provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> Int {
        let doomed = state.events.lazy.filter {
            ids.contains($0.id) && $0.provider == provider && $0.vehicleId == vehicleId && $0.type == type
        }.prefix(max(0, limit)).map(\.id)
        try deleteEvents(Array(doomed))
        return doomed.count
    }
}
