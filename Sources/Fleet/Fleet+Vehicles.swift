import Geo
import JSON
import TripModel
import TripStore

extension Fleet {
    /// Creates a vehicle; ALREADY_EXISTS when the ID is taken.
    public func createVehicle(provider: String, id: String, input: Vehicle) async throws -> Vehicle {
        try await write { writes, tx, now in try writes.createVehicle(tx, provider: provider, id: id, input: input, now: now) }
    }

    /// Reads a vehicle; NOT_FOUND when absent.
    public func vehicle(provider: String, id: String) async throws -> Vehicle {
        let record = try await store.read { reader in try reader.vehicleRecord(provider: provider, id: id) }
        guard let record else { throw FleetWrites.notFound("vehicle", id) }
        return record.vehicle
    }

    /// Applies an update mask to a vehicle, refreshes its trips' state and runs its navigator.
    public func updateVehicle(provider: String, id: String, input: Vehicle, mask: FieldMask) async throws -> Vehicle {
        try await write(readingVehicle: VehicleKey(provider: provider, id: id)) { writes, tx, now in
            try writes.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now).vehicle
        }
    }

    /// ``updateVehicle(provider:id:input:mask:)`` returning the vehicle as JSON (the API's
    /// answer): a store that keeps resources as JSON has just encoded it.
    public func updateVehicleJSON(provider: String, id: String, input: Vehicle, mask: FieldMask) async throws -> [UInt8] {
        try await write(readingVehicle: VehicleKey(provider: provider, id: id)) { writes, tx, now in
            let written = try writes.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now)
            return try written.json ?? JSONStreamEncoder().encode(written.vehicle)
        }
    }

    /// Lists vehicles by ID.
    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        try await store.listVehicles(provider: provider, page: page)
    }

    /// The nearest qualifying vehicles for a pickup, as the query orders them.
    public func searchVehicles(provider: String, query: VehicleSearchQuery) async throws -> [VehicleMatch] {
        let now = clock.now
        let box = query.searchBounds
        let candidates = try await store.onlineVehicles(
            provider: provider, within: GeoBounds(south: box.south, west: box.west, north: box.north, east: box.east))
        let matches = candidates.compactMap { candidate in
            query.match(candidate.vehicle, seatsTaken: candidate.unfinishedTrips.reduce(0) { $0 + ($1.numberOfPassengers ?? 1) }, now: now)
        }
        return query.rank(matches)
    }

    /// Deletes a vehicle; FAILED_PRECONDITION while it has unfinished trips.
    public func deleteVehicle(provider: String, id: String) async throws {
        try await write { writes, tx, _ in try writes.deleteVehicle(tx, provider: provider, id: id) }
    }

    /// The vehicle's recent locations, newest last, at most `limit` and at most 1,000: the
    /// locations logged (`didUpdateVehicleLocation`) since the vehicle was created.
    public func locationHistory(provider: String, vehicleId: String, limit: Int) async throws -> [VehicleLocation] {
        let events = try await store.newestEvents(
            provider: provider, vehicleId: vehicleId, type: Events.vehicleLocation,
            limit: min(limit, LocationHistory.maximumLength))
        return try events.map(LocationHistory.location(of:))
    }
}
