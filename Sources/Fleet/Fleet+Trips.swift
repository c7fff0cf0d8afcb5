import TripModel
import TripStore

extension Fleet {
    /// Creates a trip; ALREADY_EXISTS when the ID is taken, NOT_FOUND for an unknown vehicle.
    /// The vehicle it is assigned to is refreshed (and its navigator run) in the same write.
    public func createTrip(provider: String, id: String, input: Trip) async throws -> Trip {
        try await write { writes, tx, now in try writes.createTrip(tx, provider: provider, id: id, input: input, now: now) }
    }

    /// Reads a trip (every field); NOT_FOUND when absent.
    public func trip(provider: String, id: String) async throws -> Trip {
        try await revisionedTrip(provider: provider, id: id).value
    }

    /// Reads a trip with its revision (for caches of what is derived from it); NOT_FOUND
    /// when absent.
    public func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip> {
        guard let trip = try await store.revisionedTrip(provider: provider, id: id) else { throw FleetWrites.notFound("trip", id) }
        return trip
    }

    /// What `known` keeps for the trip's current revision (a rider's view, encoded) or, when
    /// it keeps nothing, the trip with its revision; NOT_FOUND when absent. A store that reads
    /// the revision first (``TripRevisionFirstReads``) then skips the trip's rows, and leaves
    /// keeping what is read to the caller. Without `known` (a caller that keeps nothing), the
    /// trip as ``revisionedTrip(provider:id:)`` reads it, which the store keeps for the next
    /// reader.
    package func trip<Known: Sendable>(provider: String, id: String, known: ((Revision) -> Known?)?) async throws -> TripLookup<Known> {
        guard let known else { return .read(try await revisionedTrip(provider: provider, id: id)) }
        if let revisionFirst = store as? any TripRevisionFirstReads {
            guard let found = try await revisionFirst.trip(provider: provider, id: id, known: known) else {
                throw FleetWrites.notFound("trip", id)
            }
            return found
        }
        let trip = try await revisionedTrip(provider: provider, id: id)
        return known(trip.revision).map { .known($0) } ?? .read(trip)
    }

    /// Applies an update mask to a trip and refreshes the vehicles it involves, in one write.
    package func updateTrip(provider: String, id: String, input: Trip, mask: FieldMask) async throws -> Trip {
        try await write { writes, tx, now in
            try writes.updateTrip(tx, provider: provider, id: id, input: input, mask: mask, now: now)
        }
    }

    /// Trips, optionally of one vehicle and only unfinished ones, by ID. With
    /// `minimumStaleness` (Fleet Engine's SearchTrips), only trips not updated for at least
    /// that long (``TripModel/Trip/lastUpdateTime``): a page may then hold fewer than asked,
    /// and its `nextPageToken` still leads on.
    package func searchTrips(provider: String, query: TripSearchQuery, minimumStaleness: ProtoDuration? = nil) async throws -> Page<Trip> {
        var page = try await store.searchTrips(provider: provider, query: query)
        if let minimumStaleness {
            if minimumStaleness.seconds < 0 { throw StatusError.invalid("minimumStaleness", "must not be negative") }
            let cutoff = clock.now.adding(seconds: -minimumStaleness.seconds)
            page.items.removeAll { $0.lastUpdateTime.map { $0 > cutoff } ?? false }
        }
        return page
    }

    /// Deletes a trip; FAILED_PRECONDITION while it is unfinished and assigned to a vehicle.
    package func deleteTrip(provider: String, id: String) async throws {
        try await write { writes, tx, _ in try writes.deleteTrip(tx, provider: provider, id: id) }
    }
}
