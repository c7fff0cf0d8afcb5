import TripModel

/// A vehicle as stored: the resource, the server's tracking state for it, and its
/// navigator's state (the navigator's route is stored apart, see ``StoredNavigator``).
struct VehicleRecord: Sendable {
    var vehicle: Vehicle
    var tracking: RouteTracking
    var navigator = NavigatorRecord()
}

/// The storage operations a write needs, all inside one transaction. Each store implements
/// it once; the flows in ``FleetWrites`` are shared, so every store behaves the same.
protocol FleetTransaction {
    func vehicleRecord(provider: String, id: String) throws -> VehicleRecord?
    func insertVehicle(provider: String, id: String, _ record: VehicleRecord) throws
    /// Saves a vehicle; returns its JSON when the store encoded it to save it.
    @discardableResult
    func updateVehicle(provider: String, id: String, _ record: VehicleRecord) throws -> [UInt8]?
    func deleteVehicle(provider: String, id: String) throws
    func trip(provider: String, id: String) throws -> Trip?
    func insertTrip(provider: String, id: String, _ trip: Trip) throws
    func updateTrip(provider: String, id: String, _ trip: Trip) throws
    /// Saves a trip that ``JourneyState/refresh`` has just derived from `vehicle`, the
    /// vehicle as this write will save it. A store may skip the write when the stored trip,
    /// given that vehicle (``Trip/withProgress(of:)``), already reads as `trip`.
    func updateTripProgress(provider: String, id: String, _ trip: Trip, vehicle: Vehicle) throws
    func deleteTrip(provider: String, id: String) throws
    /// The vehicle's trips that are not COMPLETE or CANCELED, oldest first.
    func unfinishedTrips(provider: String, vehicleId: String) throws -> [Trip]
    func appendEvent(provider: String, _ event: NewEvent) throws
    /// The vehicle's stored navigator route, if any.
    func navigatorRoute(provider: String, vehicleId: String) throws -> [UInt8]?
    /// Stores (or, with nil, removes) the vehicle's navigator route.
    func setNavigatorRoute(provider: String, vehicleId: String, _ route: [UInt8]?) throws
}
