import Geo
import Synchronization
import TripModel

/// Persistence of vehicles, trips, the navigators' state and the event log: it stores and
/// loads what the application layer (Fleet) hands it and never calls back up. Fleet runs each
/// API write as one transaction of persistence primitives (``StoreTransaction``, through
/// ``write(_:)``); reads that a store answers faster on its own (listings, searches, the
/// event log) are methods here.
///
/// Errors thrown are ``TripModel/StatusError``: the caller's fault (a forged page token, a lost
/// compare-and-swap) with its code, and a storage failure (a full disk, an I/O error, a lost
/// database) as `UNAVAILABLE` with a message that says what failed. A store records its
/// writes' storage failures and recoveries in ``health``.
public protocol TripStore: Sendable {
    /// Runs `body` as one write transaction and returns once it has committed: everything
    /// `body` did is stored, or nothing when it throws (the error is rethrown). Writes of one
    /// vehicle run one after another; each sees the ones committed before it. Callers use
    /// ``write(_:)``, which carries a result out. A store may run `body` more than once (the
    /// PostgreSQL store does when a write sharing its transaction fails, or another process
    /// holds a row it needs): only the run that commits counts, so a body must not act
    /// outside its transaction.
    func writeTransaction(_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws
    /// ``writeTransaction(_:)`` for a body that begins by reading the vehicle `vehicle`, when
    /// given (a location update): a store that locks the rows a write reads may lock it ahead,
    /// with the vehicles of the other writes sharing its transaction, in one statement. A hint
    /// only: the body reads the vehicle as usual, and stores that do not lock ignore it.
    func writeTransaction(readingVehicle vehicle: VehicleKey?, _ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws
    /// Runs `body` on one consistent snapshot of the data. Callers use ``read(_:)``.
    func readSnapshot(_ body: @escaping @Sendable (any StoreReader) throws -> Void) async throws

    /// A trip with its revision, a number that changes whenever the stored trip does (for
    /// caches of what is derived from it); nil when absent.
    func revisionedTrip(provider: String, id: String) async throws -> Revisioned<Trip>?
    /// The vehicles that meet `criteria` (``TripModel/VehicleCriteria/matches(_:)``), by ID, a
    /// page at a time, with how many meet them in all (`totalSize`).
    func listVehicles(provider: String, criteria: VehicleCriteria, page: PageRequest) async throws -> Page<Vehicle>
    /// The vehicles that meet `criteria` (whose `area` the store finds through its position
    /// index), by ID, each with its unfinished trips when it has current trips: the candidates
    /// of a search.
    func searchVehicles(provider: String, criteria: VehicleCriteria) async throws -> [VehicleWithTrips]
    /// Trips, optionally of one vehicle and only unfinished ones, by ID.
    func searchTrips(provider: String, query: TripSearchQuery) async throws -> Page<Trip>

    /// Events after `afterID` that match `filter`, oldest first, at most `limit`.
    func events(after afterID: Int64, filter: EventFilter, limit: Int) async throws -> [StoredEvent]
    /// The ID of the newest event, 0 when there is none.
    func latestEventID() async throws -> Int64
    /// The vehicle's newest events of one type logged since the vehicle was created, newest
    /// last, at most `limit`.
    func newestEvents(provider: String, vehicleId: String, type: String, limit: Int) async throws -> [StoredEvent]
    /// The ID of the oldest of the vehicle's newest `limit` events of one type logged since it
    /// was created: the first event ``newestEvents(provider:vehicleId:type:limit:)`` returns,
    /// found from the IDs alone (no event is read). Nil when there is none (no such event, or
    /// no such vehicle).
    func newestEventsFirstID(provider: String, vehicleId: String, type: String, limit: Int) async throws -> Int64?
    /// The ID after which the log is whole: every event with a greater ID is still there.
    /// 0 until ``StoreTransaction/deleteEvents(_:)`` has deleted any.
    func eventLogStart() async throws -> Int64

    /// Whether the store's writes currently fail for want of storage (fed by every write).
    var health: StoreHealth { get }
    /// Makes a small write that leaves the data as it was, to learn whether writes succeed
    /// now: it records its outcome in ``health`` and throws the storage failure, if any.
    func probeWrites() async throws
    /// What the store counts of its own work (nothing by default), for `/metrics`.
    var counters: [StoreCounter] { get }
}

extension TripStore {
    public var counters: [StoreCounter] { [] }

    /// Every vehicle of the provider, by ID, a page at a time.
    public func listVehicles(provider: String, page: PageRequest) async throws -> Page<Vehicle> {
        try await listVehicles(provider: provider, criteria: VehicleCriteria(), page: page)
    }

    public func writeTransaction(
        readingVehicle vehicle: VehicleKey?, _ body: @escaping @Sendable (any StoreTransaction) throws -> Void
    ) async throws {
        try await writeTransaction(body)
    }

    /// Runs `body` as one write transaction (``writeTransaction(readingVehicle:_:)``) and
    /// returns its result once the transaction has committed. Inlinable, so the result's type
    /// is known where it is called: a store's transaction code stays free of generics.
    @inlinable
    package func write<T: Sendable>(
        readingVehicle vehicle: VehicleKey? = nil, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        try await writeTransaction(readingVehicle: vehicle) { transaction in outcome.set(try body(transaction)) }
        return try outcome.get()
    }

    /// Runs `body` on one consistent snapshot (``readSnapshot(_:)``) and returns its result.
    @inlinable
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReader) throws -> T) async throws -> T {
        let outcome = Outcome<T>()
        try await readSnapshot { reader in outcome.set(try body(reader)) }
        return try outcome.get()
    }
}

/// What a transaction's body returned, carried out of the store.
@usableFromInline
final class Outcome<Value: Sendable>: Sendable {
    @usableFromInline let value = Mutex<Value?>(nil)

    @usableFromInline init() {}

    @inlinable func set(_ newValue: Value) { value.withLock { $0 = newValue } }

    /// The value; INTERNAL when the store returned without running the body.
    @inlinable func get() throws -> Value {
        guard let result = value.withLock({ $0 }) else { throw StatusError(.internal, "the store's transaction ended without running it") }
        return result
    }
}

/// A vehicle's identity: its provider and ID.
public struct VehicleKey: Hashable, Sendable {
    public var provider: String
    public var id: String

    public init(provider: String, id: String) {
        self.provider = provider
        self.id = id
    }
}

/// A vehicle and its unfinished trips, oldest first.
public struct VehicleWithTrips: Sendable {
    /// The vehicle.
    public var vehicle: Vehicle
    /// Its trips that are not COMPLETE or CANCELED.
    public var unfinishedTrips: [Trip]

    /// A pair from its parts.
    package init(vehicle: Vehicle, unfinishedTrips: [Trip]) {
        self.vehicle = vehicle
        self.unfinishedTrips = unfinishedTrips
    }
}

/// Which page of a listing to return.
public struct PageRequest: Hashable, Sendable {
    /// Results per page, 1–``Limits/maximumPageSize``.
    public var pageSize: Int
    /// The `nextPageToken` of the previous page, or nil for the first.
    package var pageToken: String?

    /// Creates a page request; a size of 0 means the default.
    public init(pageSize: Int = 0, pageToken: String? = nil) throws(StatusError) {
        if pageSize < 0 || pageSize > Limits.maximumPageSize {
            throw .invalid("pageSize", "\(pageSize) is out of range [1, \(Limits.maximumPageSize)]")
        }
        self.pageSize = pageSize == 0 ? Limits.defaultPageSize : pageSize
        self.pageToken = pageToken?.isEmpty == true ? nil : pageToken
    }

    /// The ID the page starts after, decoded from the token.
    package func startAfter() throws(StatusError) -> String? {
        guard let pageToken else { return nil }
        guard let id = PageToken.decode(pageToken) else { throw .invalid("pageToken", "is not a token this server issued") }
        return id
    }
}

/// One page of a listing.
public struct Page<Item: Sendable>: Sendable {
    /// The items, by ID.
    package var items: [Item]
    /// Pass as `pageToken` for the next page; nil on the last page.
    package var nextPageToken: String?
    /// How many items all pages hold, where the listing counts them (ListVehicles).
    package var totalSize: Int?

    /// A page from its parts.
    package init(items: [Item], nextPageToken: String?, totalSize: Int? = nil) {
        self.items = items
        self.nextPageToken = nextPageToken
        self.totalSize = totalSize
    }

    /// The first `size` of `items`, which hold one more when there is a next page; `id` names
    /// an item for the token.
    package static func of(_ items: [Item], size: Int, totalSize: Int? = nil, id: (Item) -> String) -> Page {
        let shown = Array(items.prefix(size))
        let next = items.count > size ? shown.last.map { PageToken.encode(id($0)) } : nil
        return Page(items: shown, nextPageToken: next, totalSize: totalSize)
    }
}

/// A `trips:search` request.
public struct TripSearchQuery: Hashable, Sendable {
    /// Only trips assigned to this vehicle.
    public var vehicleId: String?
    /// Only trips that are not COMPLETE or CANCELED.
    package var activeTripsOnly: Bool
    /// Which page.
    public var page: PageRequest

    /// Creates a query.
    package init(vehicleId: String? = nil, activeTripsOnly: Bool = false, page: PageRequest) {
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
    package var revision: Revision

    /// Creates a revisioned value.
    package init(value: Value, revision: Revision) {
        self.value = value
        self.revision = revision
    }
}

/// The versions a value was read at: its own row's and, for a trip whose live fields are
/// read from its vehicle, the vehicle row's (0 otherwise).
package struct Revision: Hashable, Sendable {
    /// The version of the value's own row.
    package var row: Int64
    /// The version of the vehicle row the value's live fields came from, or 0.
    package var vehicleRow: Int64

    /// Creates a revision.
    package init(row: Int64, vehicleRow: Int64 = 0) {
        self.row = row
        self.vehicleRow = vehicleRow
    }
}
