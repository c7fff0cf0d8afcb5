// What ListVehicles and SearchVehicles ask of a vehicle on its own (without its trips), as
// one value a store can answer: the in-memory store with ``VehicleCriteria/matches(_:)``,
// the SQL stores with the columns they keep beside each vehicle (``VehicleCriteria/Columns``),
// both checked against the same brute force in the store conformance tests.

/// Conditions on a vehicle; unset ones hold for every vehicle.
public struct VehicleCriteria: Hashable, Sendable {
    /// Only vehicles in this state.
    public var vehicleState: VehicleState?
    /// Only vehicles of these categories; empty means any.
    package var categories: [VehicleCategory]
    /// Only vehicles with at least this `maximumCapacity` (a vehicle without one has 0).
    public var minimumCapacity: Int?
    /// Only vehicles that support at least one of these trip types; empty means any.
    public var tripTypes: [TripType]
    /// Only vehicles whose last location reached the server at or after this time.
    package var locatedSince: Timestamp?
    /// Only vehicles with current trips (true) or without (false); nil means either.
    package var onTrip: Bool?
    /// Only vehicles whose last location lies in this box.
    public var area: Viewport?
    /// Only vehicles whose attributes satisfy this.
    public var attributes: AttributeCondition?

    /// Criteria that every vehicle meets.
    public init() {
        categories = []
        tripTypes = []
    }

    /// Whether `vehicle` meets every condition.
    package func matches(_ vehicle: Vehicle) -> Bool {
        if let vehicleState, vehicle.vehicleState != vehicleState { return false }
        if !categories.isEmpty {
            guard let category = vehicle.vehicleType?.category, categories.contains(category) else { return false }
        }
        if let minimumCapacity, (vehicle.maximumCapacity ?? 0) < minimumCapacity { return false }
        if !tripTypes.isEmpty, !vehicle.supportedTripTypes.contains(where: tripTypes.contains) { return false }
        if let locatedSince {
            guard let time = vehicle.lastLocation?.serverTime, time >= locatedSince else { return false }
        }
        if let onTrip, vehicle.currentTrips.isEmpty == onTrip { return false }
        if let area {
            guard let point = vehicle.lastLocation?.location, area.contains(point) else { return false }
        }
        if let attributes, !attributes.matches(vehicle.attributes) { return false }
        return true
    }

    /// The values the SQL stores keep beside a vehicle to answer criteria in SQL, each as
    /// ``matches(_:)`` reads it.
    package struct Columns: Hashable, Sendable {
        /// `vehicleType.category`, or nil.
        package var category: String?
        /// `maximumCapacity`, 0 when unset.
        package var capacity: Int
        /// The supported trip types as bits (``bit(of:)``).
        package var tripTypes: Int
        /// Whether the vehicle has current trips.
        package var onTrip: Bool
        /// ``AttributeCondition/indexText(of:)`` of its attributes.
        package var attributeText: String
        /// When its last location reached the server, microseconds since 1970, or nil.
        package var locatedMicroseconds: Int64?

        /// The columns of `vehicle`.
        package init(_ vehicle: Vehicle) {
            category = vehicle.vehicleType?.category.rawValue
            capacity = vehicle.maximumCapacity ?? 0
            tripTypes = VehicleCriteria.bits(of: vehicle.supportedTripTypes)
            onTrip = !vehicle.currentTrips.isEmpty
            attributeText = AttributeCondition.indexText(of: vehicle.attributes)
            locatedMicroseconds = vehicle.lastLocation?.serverTime?.microseconds
        }

        /// Whether the columns that change rarely (all but the location time) may differ
        /// between two versions of a vehicle, judged from the fields they come from (cheaper
        /// than computing them): a store rewrites its index of them only then.
        package static func listingMayDiffer(_ old: Vehicle, _ new: Vehicle) -> Bool {
            old.vehicleType != new.vehicleType || old.maximumCapacity != new.maximumCapacity
                || old.supportedTripTypes != new.supportedTripTypes || old.currentTrips.isEmpty != new.currentTrips.isEmpty
                || old.attributes != new.attributes
        }
    }

    /// A trip type's bit in ``Columns/tripTypes``.
    public static func bit(of tripType: TripType) -> Int {
        switch tripType {
        case .exclusive: 1
        case .shared: 2
        }
    }

    /// The bits of several trip types.
    package static func bits(of tripTypes: [TripType]) -> Int { tripTypes.reduce(0) { $0 | bit(of: $1) } }
}
