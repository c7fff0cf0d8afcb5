// The persistence primitives the application layer (Fleet) composes its writes from. A store
// implements them once, over its own transaction scheme; every rule (what a write changes,
// which events it logs, when the navigator runs) is Fleet's, so every store behaves the same.
//
// What any implementation must guarantee (the conformance suite in TripStoreTesting checks
// each of these on every store):
// - everything a `TripStore.write` body does commits together when the body returns, or not
//   at all when it throws (and then no other write's changes are lost with it);
// - a body sees the writes committed before it and its own changes, never another
//   concurrent body's uncommitted ones: writes of one vehicle are serialised;
// - revisions move only when a row is written, and `updateTripProgress` may skip the write;
// - events get strictly increasing IDs in commit order; deleting events never renumbers the
//   others, and the log's start (`TripStore.eventLogStart`) only moves up;
// - the navigator state is stored with its vehicle, the navigator route only when replaced;
// - a vehicle's navigation UI settings are stored apart and removed with the vehicle;
// - a road cell's pace is one row per provider and cell, added to atomically (two writes
//   adding to one cell at once both count);
// - a billable trip is recorded once: the first record of a trip stays.

import TripModel

/// What a store hands Fleet to read inside one transaction or snapshot.
public protocol StoreReader {
    /// The vehicle as stored, with its tracking and navigator state; nil when absent.
    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord?
    /// The trip (every field, live fields current); nil when absent.
    func trip(provider: String, id: String) throws -> Trip?
    /// The vehicle's trips that are not COMPLETE or CANCELED, oldest first (creation order).
    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip]
    /// The vehicle's stored navigator route, if any.
    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]?
    /// The vehicle's stored navigation UI settings, if any were set.
    func navigationUISettings(provider: String, vehicleId: String) throws -> NavigationUISettingsRecord?
    /// The fleet's observed paces of these road cells, in any order; cells never observed are
    /// left out.
    func roadCellPaces(provider: String, cells: [RoadCell]) throws -> [RoadCellPace]
    /// What the fleet's legs showed in these areas (``AreaObservation/area``), every kind, in
    /// any order; areas never observed are left out.
    func areaObservations(provider: String, areas: [Int64]) throws -> [AreaObservation]
    /// The billable trips reported at or after `since`, by report time then name, after the
    /// record `after` when given (the last of the previous page); at most `limit`.
    func billableTrips(since: Timestamp, after: BillableTripRecord?, limit: Int) throws -> [BillableTripRecord]
}

/// The storage operations of one write, all inside its transaction (see the file comment for
/// the guarantees).
public protocol StoreTransaction: StoreReader {
    /// Inserts a vehicle; its location history starts after the newest event logged so far.
    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws
    /// Saves a vehicle; returns the JSON of its row's body when the store encodes one (the
    /// vehicle without its route segment: ``StoredRoute/answer(body:record:)`` makes the API's
    /// answer of it).
    @discardableResult
    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]?
    /// Deletes a vehicle with its navigator route and navigation UI settings.
    func deleteVehicle(provider: String, id: String) throws
    /// Inserts a trip.
    func insertTrip(provider: String, id: String, _ trip: Trip) throws
    /// Saves a trip whole.
    func updateTrip(provider: String, id: String, _ trip: Trip) throws
    /// Saves a trip that Fleet has just derived from `vehicle`, the vehicle as this write will
    /// save it. A store may skip the write when the stored trip, given that vehicle
    /// (``TripModel/Trip/withProgress(of:)``), already reads as `trip`; it must not skip it
    /// otherwise.
    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws
    /// Deletes a trip.
    func deleteTrip(provider: String, id: String) throws
    /// Appends an event to the log.
    func appendEvent(provider: String, _ event: NewEvent) throws
    /// Deletes these events from the log (IDs already deleted are skipped) and moves the
    /// log's start (``TripStore/eventLogStart()``) up to the greatest of them. Retention's
    /// primitive: Fleet decides which of the events it read go, a few hundred at a time.
    func deleteEvents(_ ids: [Int64]) throws
    /// Deletes the oldest `limit` of the vehicle's events of one type whose IDs lie in `ids`
    /// (fewer when fewer are there), as ``deleteEvents(_:)`` does, and returns how many it
    /// deleted. Retention's primitive for one vehicle's old locations: a write deletes a
    /// bounded number, without the events being read first.
    func deleteEvents(provider: String, vehicleId: String, type: String, ids: Range<Int64>, limit: Int) throws -> Int
    /// Stores (or, with nil, removes) the vehicle's navigator route.
    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws
    /// Stores (or, with nil, removes) the vehicle's navigation UI settings.
    func setNavigationUISettings(provider: String, vehicleId: String, _ settings: NavigationUISettingsRecord?) throws
    /// Adds one pass through a road cell to the cell's sums: the stored metres and seconds are
    /// first scaled by the same factor so the metres are at most `memoryMeters` (the pace
    /// stays, older passes weigh less), then `pace`'s metres and seconds are added, and its
    /// `updated` becomes the cell's when later. A cell not stored yet starts with `pace`.
    func addRoadCellPace(provider: String, _ pace: RoadCellPace, memoryMeters: Double) throws
    /// Adds `observation` to the sums of its kind and area, as ``addRoadCellPace(provider:_:memoryMeters:)``
    /// does: the stored sums are first scaled down so their weight is at most `memory`, then
    /// `observation`'s amount and weight are added, and its `updated` becomes the row's when
    /// later. An area not stored yet starts with `observation`.
    func addAreaObservation(provider: String, _ observation: AreaObservation, memory: Double) throws
    /// Records a billable trip of `provider` unless one of that trip is recorded; returns the
    /// record kept (the first).
    func recordBillableTrip(provider: String, tripId: String, _ record: BillableTripRecord) throws -> BillableTripRecord
}

/// A vehicle as stored: the resource, the tracking state derived for it, and its navigator's
/// state (the navigator's route is stored apart, see ``StoreTransaction/setNavigatorRoute(provider:vehicleId:_:)``).
public struct VehicleRecord: Hashable, Sendable {
    /// The resource.
    public var vehicle: Vehicle
    /// Where the vehicle was matched on its route segment.
    public var tracking: RouteTracking
    /// The navigator's moving state and the version of its stored route.
    public var navigator: NavigatorRecord
    /// The vehicle's route segment with its cumulative distances, as stored apart from the
    /// vehicle's row (written only when the segment changes); nil when not known yet or the
    /// vehicle has none. It may be stale after the vehicle changed: read it through
    /// ``measuredRoute``.
    public var route: MeasuredRoute?

    /// A record from its parts.
    public init(
        vehicle: Vehicle, tracking: RouteTracking, navigator: NavigatorRecord = NavigatorRecord(), route: MeasuredRoute? = nil
    ) {
        self.vehicle = vehicle
        self.tracking = tracking
        self.navigator = navigator
        self.route = route
    }

    /// The vehicle's route segment measured: ``route`` when it is the vehicle's segment,
    /// measured anew otherwise; nil without a segment.
    package var measuredRoute: MeasuredRoute? { MeasuredRoute.of(vehicle, known: route) }

    /// The same record with a route that keeps no stretch between updates
    /// (``MeasuredRoute/withoutKeptStretch``).
    package var withoutKeptStretch: VehicleRecord {
        guard let unkept = route?.withoutKeptStretch else { return self }
        var record = self
        record.route = unkept
        return record
    }

    /// Records are equal when what they store is: ``route`` is derived from the vehicle.
    public static func == (a: VehicleRecord, b: VehicleRecord) -> Bool {
        a.vehicle == b.vehicle && a.tracking == b.tracking && a.navigator == b.navigator
    }

    /// Hashes what the record stores (not the derived ``route``).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(vehicle)
        hasher.combine(tracking)
        hasher.combine(navigator)
    }
}

/// The navigator half of a vehicle record: opaque bytes to the store.
public struct NavigatorRecord: Hashable, Sendable {
    /// The navigator's state; nil when the vehicle has no navigator.
    package var state: [UInt8]?
    /// Identifies the stored route: it changes whenever the route is replaced and never
    /// repeats for a vehicle, so a reader may cache the decoded route under it. 0 when no
    /// route was ever stored.
    package var routeVersion: Int64

    /// A record from its parts.
    public init(state: [UInt8]? = nil, routeVersion: Int64 = 0) {
        self.state = state
        self.routeVersion = routeVersion
    }
}
