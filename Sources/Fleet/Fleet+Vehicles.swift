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
            try writes.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now).record.vehicle
        }
    }

    /// ``updateVehicle(provider:id:input:mask:)`` returning the vehicle as JSON (the API's
    /// answer) with the chosen `extensions`, to be written where it is sent from: a store that
    /// keeps resources as JSON has just encoded the vehicle's body, and the answer is that body
    /// less the extensions left out, with the route put back. It is made after the write,
    /// outside its transaction, and written once: at 20,000 points it is some 80 KB (issue 30).
    package func updateVehicleJSON(
        provider: String, id: String, input: Vehicle, mask: FieldMask, extensions: ResourceExtensions
    ) async throws -> JSONObjectInsertions {
        let (record, body) = try await write(readingVehicle: VehicleKey(provider: provider, id: id)) { writes, tx, now in
            try writes.updateVehicle(tx, provider: provider, id: id, input: input, mask: mask, now: now)
        }
        if let body, let wanted = extensions.answer(fromStored: body, of: record.vehicle),
            let answer = StoredRoute.answer(body: wanted, record: record)
        {
            return answer
        }
        return JSONObjectInsertions(into: try JSONStreamEncoder(userInfo: extensions.userInfo).encode(record.vehicle))
    }

    /// Every vehicle of the provider, by ID, a page at a time.
    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        try await store.listVehicles(provider: provider, page: page)
    }

    /// The vehicles that meet a `ListVehicles` request, by ID, a page at a time, with how many
    /// meet it in all; INVALID_ARGUMENT naming the field of a request Fleet Engine refuses.
    public func listVehicles(provider: String, query: VehicleListQuery) async throws -> Page<Vehicle> {
        let criteria = try query.criteria(now: clock.now)
        let page = try PageRequest(pageSize: query.pageSize, pageToken: query.pageToken)
        return try await store.listVehicles(provider: provider, criteria: criteria, page: page)
    }

    /// The vehicles that can take the trip a `SearchVehicles` request describes, ordered as it
    /// asks; INVALID_ARGUMENT naming the field of a request Fleet Engine refuses.
    public func searchVehicles(provider: String, query: VehicleSearchQuery) async throws -> [VehicleMatch] {
        let now = clock.now
        let criteria = try query.criteria(now: now)
        let candidates = try await store.searchVehicles(provider: provider, criteria: criteria)
        // Room for every candidate at once: growing the array would move each match (with its
        // whole vehicle) at every doubling.
        var matches: [VehicleMatch] = []
        matches.reserveCapacity(candidates.count)
        for candidate in candidates {
            if let match = query.match(candidate.vehicle, trips: candidate.unfinishedTrips, now: now) { matches.append(match) }
        }
        return query.rank(matches)
    }

    /// Deletes a vehicle; FAILED_PRECONDITION while it has unfinished trips.
    package func deleteVehicle(provider: String, id: String) async throws {
        try await write { writes, tx, _ in try writes.deleteVehicle(tx, provider: provider, id: id) }
    }

    /// The vehicle's recent locations, newest last, at most `limit` and at most 1,000: the
    /// locations logged (`didUpdateVehicleLocation`) since the vehicle was created.
    package func locationHistory(provider: String, vehicleId: String, limit: Int) async throws -> [VehicleLocation] {
        let events = try await store.newestEvents(
            provider: provider, vehicleId: vehicleId, type: Events.vehicleLocation,
            limit: min(limit, LocationHistory.maximumLength))
        return try events.map(LocationHistory.location(of:))
    }
}
