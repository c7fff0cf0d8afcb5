import Synchronization
import TripModel

/// A store in memory, for tests and offline tools: the same write flows as the SQLite store
/// over dictionaries behind a lock. A failed write leaves nothing behind, because it works
/// on a copy that replaces the state only when the write succeeds.
public final class InMemoryTripStore: TripStore {
    struct Key: Hashable { var provider: String; var id: String }

    struct State: Sendable {
        var vehicles: [Key: VehicleRecord] = [:]
        var trips: [Key: (order: Int, revision: Int64, trip: Trip)] = [:]
        var nextTripOrder = 0
        var nextRevision: Int64 = 1
        /// The newest event's ID when each vehicle was created: its history starts after it.
        var historyStarts: [Key: Int64] = [:]
        var events: [StoredEvent] = []
        var navigatorRoutes: [Key: [UInt8]] = [:]
    }

    private let state = Mutex(State())
    let clock: WallClock
    /// Style changes (InMemoryTripStore+Styles.swift).
    let styles = StyleRecords()

    /// Creates an empty store reading time from `clock`.
    public init(clock: WallClock = .system) { self.clock = clock }

    private func write<T: Sendable>(_ body: (MemoryTransaction, Timestamp) throws -> T) throws -> T {
        let now = clock.now
        return try state.withLock { state in
            let tx = MemoryTransaction(state: state)
            let result = try body(tx, now)
            state = tx.state
            return result
        }
    }

    private func read<T: Sendable>(_ body: (State) throws -> T) rethrows -> T {
        try state.withLock { state in try body(state) }
    }

    public func createVehicle(provider: String, id: String, input: Vehicle) async throws -> Vehicle {
        try write { tx, now in try FleetWrites.createVehicle(tx, provider: provider, id: id, input: input, now: now) }
    }

    public func vehicle(provider: String, id: String) async throws -> Vehicle {
        guard let record = read({ $0.vehicles[Key(provider: provider, id: id)] }) else {
            throw FleetError(.notFound, "vehicle '\(id)' does not exist")
        }
        return record.vehicle
    }

    public func updateVehicle(provider: String, id: String, input: Vehicle, mask: FieldMask,
                              hook: (any VehicleUpdateHook)?) async throws -> Vehicle {
        try write { tx, now in
            try FleetWrites.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now, hook: hook).vehicle
        }
    }

    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        let after = try page.startAfter() ?? ""
        let vehicles = read { state in
            state.vehicles.filter { $0.key.provider == provider && $0.key.id > after }.sorted { $0.key.id < $1.key.id }
                .map(\.value.vehicle)
        }
        return Self.page(vehicles, size: page.pageSize) { ResourceName.lastComponent(of: $0.name) }
    }

    public func searchVehicles(provider: String, query: VehicleSearchQuery) async throws -> [VehicleMatch] {
        let now = clock.now
        return read { state in
            let matches = state.vehicles.filter { $0.key.provider == provider }.compactMap { key, record -> VehicleMatch? in
                let seats = state.trips
                    .filter { $0.key.provider == provider && $0.value.trip.vehicleId == key.id && !$0.value.trip.tripStatus.isTerminal }
                    .reduce(0) { $0 + ($1.value.trip.numberOfPassengers ?? 1) }
                return query.match(record.vehicle, seatsTaken: seats, now: now)
            }
            return query.rank(matches)
        }
    }

    public func deleteVehicle(provider: String, id: String) async throws {
        try write { tx, _ in try FleetWrites.deleteVehicle(tx, provider: provider, id: id) }
    }

    public func createTrip(provider: String, id: String, input: Trip, hook: (any VehicleUpdateHook)?) async throws -> Trip {
        try write { tx, now in try FleetWrites.createTrip(tx, provider: provider, id: id, input: input, now: now, hook: hook) }
    }

    public func trip(provider: String, id: String) async throws -> Trip {
        try await revisionedTrip(provider: provider, id: id).value
    }

    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip> {
        guard let entry = read({ $0.trips[Key(provider: provider, id: id)] }) else {
            throw FleetError(.notFound, "trip '\(id)' does not exist")
        }
        return Revisioned(value: entry.trip, revision: Revision(row: entry.revision))
    }

    public func updateTrip(provider: String, id: String, input: Trip, mask: FieldMask,
                           hook: (any VehicleUpdateHook)?) async throws -> Trip {
        try write { tx, now in
            try FleetWrites.updateTrip(tx, provider: provider, id: id, input: input, mask: mask, now: now, hook: hook)
        }
    }

    public func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip> {
        let after = try query.page.startAfter() ?? ""
        let trips = read { state in
            state.trips.filter { key, entry in
                key.provider == provider && key.id > after
                    && (query.vehicleId == nil || entry.trip.vehicleId == query.vehicleId)
                    && (!query.activeTripsOnly || !entry.trip.tripStatus.isTerminal)
            }.sorted { $0.key.id < $1.key.id }.map(\.value.trip)
        }
        return Self.page(trips, size: query.page.pageSize) { $0.tripId }
    }

    public func deleteTrip(provider: String, id: String) async throws {
        try write { tx, now in try FleetWrites.deleteTrip(tx, provider: provider, id: id, now: now) }
    }

    public func providers(ofTrip tripId: String) async throws -> [String] {
        read { state in Set(state.trips.keys.filter { $0.id == tripId }.map(\.provider)).sorted() }
    }

    public func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent] {
        read { state in Array(state.events.lazy.filter { $0.id > afterID && filter.matches($0) }.prefix(limit)) }
    }

    public func latestEventID() async throws -> Int64 { read { $0.events.last?.id ?? 0 } }

    public func locationHistory(provider: String, vehicleId: String, limit: Int) async throws -> [VehicleLocation] {
        let events = read { state -> [StoredEvent] in
            guard let start = state.historyStarts[Key(provider: provider, id: vehicleId)] else { return [] }
            return Array(state.events.lazy.filter {
                $0.id > start && $0.provider == provider && $0.vehicleId == vehicleId && $0.type == Events.vehicleLocation
            }.suffix(min(limit, LocationHistory.maximumLength)))
        }
        return try events.map { try LocationHistory.location(fromEventData: $0.data) }
    }

    public func updateNavigator(provider: String, vehicleId: String,
                                change: @escaping @Sendable (inout VehicleChange) throws -> [NewEvent]) async throws -> Vehicle {
        try write { tx, now in try FleetWrites.updateNavigator(tx, provider: provider, id: vehicleId, now: now, change: change) }
    }

    public func readNavigator<T: Sendable>(provider: String, vehicleId: String,
                                           _ body: @escaping @Sendable (Vehicle, StoredNavigator) throws -> T) async throws -> T {
        try read { state in
            let (vehicle, navigator) = try FleetWrites.storedNavigator(MemoryTransaction(state: state), provider: provider, id: vehicleId)
            return try body(vehicle, navigator)
        }
    }

    private static func page<Item>(_ items: [Item], size: Int, id: (Item) -> String) -> Page<Item> {
        let shown = Array(items.prefix(size))
        let next = items.count > size ? shown.last.map { PageToken.encode(id($0)) } : nil
        return Page(items: shown, nextPageToken: next)
    }
}

/// ``FleetTransaction`` over a copy of the in-memory state.
final class MemoryTransaction: FleetTransaction {
    typealias Key = InMemoryTripStore.Key
    var state: InMemoryTripStore.State

    init(state: InMemoryTripStore.State) { self.state = state }

    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord? { state.vehicles[Key(provider: provider, id: id)] }

    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws {
        state.vehicles[Key(provider: provider, id: id)] = record
        state.historyStarts[Key(provider: provider, id: id)] = state.events.last?.id ?? 0
    }

    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]? {
        state.vehicles[Key(provider: provider, id: id)] = record
        return nil
    }

    func deleteVehicle(provider: String, id: String) throws {
        state.vehicles[Key(provider: provider, id: id)] = nil
        state.historyStarts[Key(provider: provider, id: id)] = nil
        state.navigatorRoutes[Key(provider: provider, id: id)] = nil
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
        state.trips.filter { $0.key.provider == provider && $0.value.trip.vehicleId == vehicleId && !$0.value.trip.tripStatus.isTerminal }
            .sorted { $0.value.order < $1.value.order }.map(\.value.trip)
    }

    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]? {
        state.navigatorRoutes[Key(provider: provider, id: vehicleId)]
    }

    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws {
        state.navigatorRoutes[Key(provider: provider, id: vehicleId)] = route
    }

    func appendEvent(provider: String, _ event: NewEvent) throws {
        let id = (state.events.last?.id ?? 0) + 1
        state.events.append(StoredEvent(id: id, time: event.time, provider: provider, vehicleId: event.vehicleId,
                                        tripIds: event.tripIds, type: event.type, data: event.data))
    }
}
