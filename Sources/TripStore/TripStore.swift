import TripModel

/// Persistence of vehicles, trips, location history and the event log. Every write is one
/// transaction: it applies the model's rules (``TripModel``), refreshes the derived trip
/// state of the vehicles it touches, records events, and commits — or changes nothing.
///
/// Errors thrown are ``FleetError`` for anything the caller did wrong (not found, invalid,
/// illegal transition) and storage errors otherwise.
public protocol TripStore: Sendable {
    /// Creates a vehicle; ALREADY_EXISTS when the ID is taken.
    func createVehicle(provider: String, id: String, input: Vehicle) async throws -> Vehicle
    /// Reads a vehicle; NOT_FOUND when absent.
    func vehicle(provider: String, id: String) async throws -> Vehicle
    /// Applies an update mask to a vehicle and refreshes its trips' state; `hook` runs inside
    /// the same transaction (see ``VehicleUpdateHook``).
    func updateVehicle(provider: String, id: String, input: Vehicle, mask: FieldMask,
                       hook: (any VehicleUpdateHook)?) async throws -> Vehicle
    /// ``updateVehicle(provider:id:input:mask:hook:)`` returning the vehicle as JSON (the
    /// API's response): a store that keeps resources as JSON has just encoded it.
    func updateVehicleJSON(provider: String, id: String, input: Vehicle, mask: FieldMask,
                           hook: (any VehicleUpdateHook)?) async throws -> [UInt8]
    /// Lists vehicles by ID.
    func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle>
    /// The nearest qualifying vehicles for a pickup.
    func searchVehicles(provider: String, query: VehicleSearchQuery) async throws -> [VehicleMatch]
    /// Deletes a vehicle; FAILED_PRECONDITION while it has unfinished trips.
    func deleteVehicle(provider: String, id: String) async throws

    /// Creates a trip; ALREADY_EXISTS when the ID is taken, NOT_FOUND for an unknown vehicle.
    /// `hook` runs for the vehicle it is assigned to, inside the same transaction.
    func createTrip(provider: String, id: String, input: Trip, hook: (any VehicleUpdateHook)?) async throws -> Trip
    /// Reads a trip (every field); NOT_FOUND when absent.
    func trip(provider: String, id: String) async throws -> Trip
    /// Reads a trip with its revision, a number that changes whenever the stored trip does
    /// (for caches of what is derived from it); NOT_FOUND when absent.
    func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>
    /// Applies an update mask to a trip and refreshes the vehicles it involves; `hook` runs
    /// for each of them, inside the same transaction.
    func updateTrip(provider: String, id: String, input: Trip, mask: FieldMask,
                    hook: (any VehicleUpdateHook)?) async throws -> Trip
    /// Trips, optionally of one vehicle and only unfinished ones, by ID.
    func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip>
    /// Deletes a trip; FAILED_PRECONDITION while it is unfinished and assigned to a vehicle.
    func deleteTrip(provider: String, id: String) async throws
    /// The providers that hold a trip with this ID (a share link names only the trip).
    func providers(ofTrip tripId: String) async throws -> [String]

    /// Events after `afterID` that match `filter`, oldest first, at most `limit`.
    func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent]
    /// The ID of the newest event, 0 when there is none.
    func latestEventID() async throws -> Int64
    /// The vehicle's recent locations, newest last, at most `limit` and at most 1,000: the
    /// locations logged (`didUpdateVehicleLocation`) since the vehicle was created.
    func locationHistory(provider: String, vehicleId: String, limit: Int) async throws -> [VehicleLocation]

    /// Changes a vehicle's navigator in one write transaction: `change` runs first (cause
    /// ``VehicleChange/Cause/navigatorChanged``; `trips` are the trips before the refresh),
    /// then the vehicle's trips are refreshed from what it left on the vehicle, and all is
    /// saved with its events, the navigator's first. NOT_FOUND for an unknown vehicle.
    func updateNavigator(provider: String, vehicleId: String,
                         change: @escaping @Sendable (inout VehicleChange) throws -> [NewEvent]) async throws -> Vehicle
    /// Reads a vehicle and its stored navigator in one consistent snapshot.
    func readNavigator<T: Sendable>(provider: String, vehicleId: String,
                                    _ body: @escaping @Sendable (Vehicle, StoredNavigator) throws -> T) async throws -> T
}

extension TripStore {
    /// Encodes the updated vehicle; stores that keep JSON return theirs instead.
    public func updateVehicleJSON(provider: String, id: String, input: Vehicle, mask: FieldMask,
                                  hook: (any VehicleUpdateHook)?) async throws -> [UInt8] {
        try JSONStreamEncoder().encode(try await updateVehicle(provider: provider, id: id, input: input, mask: mask, hook: hook))
    }

    /// ``updateVehicle(provider:id:input:mask:hook:)`` without a hook.
    public func updateVehicle(provider: String, id: String, input: Vehicle, mask: FieldMask) async throws -> Vehicle {
        try await updateVehicle(provider: provider, id: id, input: input, mask: mask, hook: nil)
    }

    /// ``createTrip(provider:id:input:hook:)`` without a hook.
    public func createTrip(provider: String, id: String, input: Trip) async throws -> Trip {
        try await createTrip(provider: provider, id: id, input: input, hook: nil)
    }

    /// ``updateTrip(provider:id:input:mask:hook:)`` without a hook.
    public func updateTrip(provider: String, id: String, input: Trip, mask: FieldMask) async throws -> Trip {
        try await updateTrip(provider: provider, id: id, input: input, mask: mask, hook: nil)
    }
}

/// Which page of a listing to return.
public struct PageRequest: Hashable, Sendable {
    /// Results per page, 1–``Limits/maximumPageSize``.
    public var pageSize: Int
    /// The `nextPageToken` of the previous page, or nil for the first.
    public var pageToken: String?

    /// Creates a page request; a size of 0 means the default.
    public init(pageSize: Int = 0, pageToken: String? = nil) throws(FleetError) {
        if pageSize < 0 || pageSize > Limits.maximumPageSize {
            throw .invalid("pageSize", "\(pageSize) is out of range [1, \(Limits.maximumPageSize)]")
        }
        self.pageSize = pageSize == 0 ? Limits.defaultPageSize : pageSize
        self.pageToken = pageToken?.isEmpty == true ? nil : pageToken
    }

    /// The ID the page starts after, decoded from the token.
    func startAfter() throws(FleetError) -> String? {
        guard let pageToken else { return nil }
        guard let id = PageToken.decode(pageToken) else { throw .invalid("pageToken", "is not a token this server issued") }
        return id
    }
}

/// One page of a listing.
public struct Page<Item: Sendable>: Sendable {
    /// The items, by ID.
    public var items: [Item]
    /// Pass as `pageToken` for the next page; nil on the last page.
    public var nextPageToken: String?
}

/// A `trips:search` request.
public struct TripSearchQuery: Hashable, Sendable {
    /// Only trips assigned to this vehicle.
    public var vehicleId: String?
    /// Only trips that are not COMPLETE or CANCELED.
    public var activeTripsOnly: Bool
    /// Which page.
    public var page: PageRequest

    /// Creates a query.
    public init(vehicleId: String? = nil, activeTripsOnly: Bool = false, page: PageRequest) {
        self.vehicleId = vehicleId
        self.activeTripsOnly = activeTripsOnly
        self.page = page
    }
}

/// A stored value with its revision: equal revisions of the same resource mean equal values.
public struct Revisioned<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Changes whenever the stored value changes.
    public var revision: Revision

    /// Creates a revisioned value.
    public init(value: Value, revision: Revision) {
        self.value = value
        self.revision = revision
    }
}

/// The versions a value was read at: its own row's and, for a trip whose live fields are
/// read from its vehicle, the vehicle row's (0 otherwise).
public struct Revision: Hashable, Sendable {
    /// The version of the value's own row.
    public var row: Int64
    /// The version of the vehicle row the value's live fields came from, or 0.
    public var vehicleRow: Int64

    /// Creates a revision.
    public init(row: Int64, vehicleRow: Int64 = 0) {
        self.row = row
        self.vehicleRow = vehicleRow
    }
}
