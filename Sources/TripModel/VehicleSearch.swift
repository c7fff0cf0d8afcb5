import JSON

/// A `vehicles:search` request (Fleet Engine `SearchVehiclesRequest`): the ONLINE vehicles
/// within a radius of a pickup that can take a trip of the given type and size, best first.
/// How matches are made and ranked: ``match(_:trips:now:)`` and ``rank(_:)``; the rules are
/// written out in docs/vehicle-search.md.
public struct VehicleSearchQuery: Hashable, Sendable {
    /// Where the rider waits.
    public var pickupPoint: TerminalLocation
    /// Where the rider goes; required for SHARED trips and the DROPOFF_POINT_ETA order.
    public var dropoffPoint: TerminalLocation?
    /// How far from the pickup a vehicle may be, 400–10,000 m.
    public var pickupRadiusMeters: Int
    /// How many matches to return at most, 1–50.
    public var count: Int
    /// Seats the trip needs, at least 1.
    public var minimumCapacity: Int
    /// The trip's type: exactly one.
    public var tripTypes: [TripType]
    /// Only vehicles that sent a location within this long (default five minutes).
    package var maximumStaleness: ProtoDuration?
    /// Vehicle types accepted: at least one.
    package var vehicleTypes: [VehicleType]
    /// Attributes a vehicle must all have.
    public var requiredAttributes: [Attribute]
    /// Lists a vehicle must have at least one attribute of.
    public var requiredOneOfAttributes: [AttributeList]
    /// Sets of which a vehicle must have every attribute of at least one.
    package var requiredOneOfAttributeSets: [AttributeList]
    /// How to order matches.
    public var orderBy: Order
    /// With `currentTripsPresent` unspecified: also vehicles that accept back-to-back trips
    /// and have one trip, ENROUTE_TO_DROPOFF.
    package var includeBackToBack: Bool
    /// The trip the search is for: a vehicle it is already assigned to is matched as if it
    /// were not (its seats and stops do not count).
    package var tripId: String?
    /// Whether vehicles with trips may match.
    package var currentTripsPresent: CurrentTripsPresent
    /// An AIP-160 filter on attributes (``AttributeFilterParser``); exclusive with the
    /// `required*` fields.
    public var filter: String

    /// The orders of matches Fleet Engine offers.
    public enum Order: String, WireEnum {
        /// Unset: refused, the order is required.
        case unknown = "UNKNOWN_VEHICLE_MATCH_ORDER"
        /// By the time the vehicle reaches the pickup.
        case pickupPointETA = "PICKUP_POINT_ETA"
        /// By the driving distance to the pickup.
        case pickupPointDistance = "PICKUP_POINT_DISTANCE"
        /// By the time the vehicle reaches the dropoff (needs `dropoffPoint`).
        case dropoffPointETA = "DROPOFF_POINT_ETA"
        /// By the straight-line distance to the pickup.
        case pickupPointStraightDistance = "PICKUP_POINT_STRAIGHT_DISTANCE"
        /// By time to the pickup plus ``VehicleSearchQuery/costSecondsPerMeter`` per metre of
        /// straight-line distance.
        case cost = "COST"
    }

    /// Which vehicles with trips may match (Fleet Engine `CurrentTripsPresent`).
    package enum CurrentTripsPresent: String, WireEnum {
        /// Governed by `includeBackToBack`.
        case unspecified = "CURRENT_TRIPS_PRESENT_UNSPECIFIED"
        /// Only vehicles without trips.
        case none = "NONE"
        /// Vehicles with at most five current trips and ten waypoints too.
        case any = "ANY"
    }

    /// A list of attributes (Fleet Engine `VehicleAttributeList`).
    public struct AttributeList: Codable, Hashable, Sendable {
        /// The attributes.
        public var attributes: [Attribute]

        /// Creates a list.
        public init(attributes: [Attribute]) { self.attributes = attributes }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            attributes = try c.decodeArray(Attribute.self, forKey: .attributes)
        }
    }

    /// Creates a query for vehicles of every type, no trips allowed, no attribute conditions.
    public init(
        pickupPoint: TerminalLocation, pickupRadiusMeters: Int, count: Int, minimumCapacity: Int,
        tripTypes: [TripType], orderBy: Order = .pickupPointETA
    ) {
        self.pickupPoint = pickupPoint
        self.pickupRadiusMeters = pickupRadiusMeters
        self.count = count
        self.minimumCapacity = minimumCapacity
        self.tripTypes = tripTypes
        self.vehicleTypes = VehicleCategory.allCases.map(VehicleType.init)
        self.requiredAttributes = []
        self.requiredOneOfAttributes = []
        self.requiredOneOfAttributeSets = []
        self.orderBy = orderBy
        self.includeBackToBack = false
        self.currentTripsPresent = .unspecified
        self.filter = ""
    }

    /// How long ago a vehicle may have sent its last location when the request does not say.
    package static let defaultMaximumStaleness = ProtoDuration(seconds: 300)
    /// Trips a vehicle may have to match with `currentTripsPresent` ANY.
    package static let maximumCurrentTrips = 5
    /// Waypoints a vehicle may have to match with `currentTripsPresent` ANY.
    package static let maximumCurrentWaypoints = 10

    /// Checks the request as Fleet Engine does and states what a vehicle must meet on its own
    /// (state, type, capacity, staleness, the box around the radius, attributes, and whether
    /// it may have trips); errors name the field. `now` dates `maximumStaleness`.
    package func criteria(now: Timestamp) throws(StatusError) -> VehicleCriteria {
        try validate()
        var criteria = VehicleCriteria()
        criteria.vehicleState = .online
        criteria.categories = vehicleTypes.map(\.category)
        criteria.minimumCapacity = minimumCapacity
        criteria.tripTypes = tripTypes
        criteria.locatedSince = try VehicleListQuery.locatedSince(
            now: now, staleness: maximumStaleness ?? Self.defaultMaximumStaleness, field: "maximumStaleness")
        criteria.area = Viewport(around: pickupPoint.point, meters: Double(pickupRadiusMeters))
        // A vehicle that serves the trip searched for may look busy only because of it.
        if tripId == nil, currentTripsPresent == .none || (currentTripsPresent == .unspecified && !includeBackToBack) {
            criteria.onTrip = false
        }
        criteria.attributes = try VehicleListQuery.attributeCondition(
            filter: filter,
            required: try requiredAttributes.enumerated().map { i, attribute throws(StatusError) in
                try Self.restriction(attribute, field: "requiredAttributes[\(i)]")
            },
            oneOf: try Self.lists(requiredOneOfAttributes, field: "requiredOneOfAttributes"),
            sets: try Self.lists(requiredOneOfAttributeSets, field: "requiredOneOfAttributeSets"))
        return criteria
    }

    private func validate() throws(StatusError) {
        try Check.terminal(pickupPoint, "pickupPoint")
        try Check.terminal(dropoffPoint, "dropoffPoint")
        try Check.integer(pickupRadiusMeters, "pickupRadiusMeters", 400...10_000)
        try Check.integer(count, "count", 1...50)
        try Check.integer(minimumCapacity, "minimumCapacity", 1...Limits.maximumCapacity)
        if tripTypes.count != 1 { throw .invalid("tripTypes", "must name exactly one trip type, got \(tripTypes.count)") }
        if vehicleTypes.isEmpty { throw .invalid("vehicleTypes", "required field is missing; name at least one vehicle type") }
        try Check.count(vehicleTypes, "vehicleTypes", max: Limits.maximumShortList)
        if orderBy == .unknown { throw .invalid("orderBy", "required field is missing") }
        if orderBy == .dropoffPointETA, dropoffPoint == nil {
            throw .invalid("orderBy", "DROPOFF_POINT_ETA needs a dropoffPoint")
        }
        if tripTypes.contains(.shared) {
            if dropoffPoint == nil { throw .invalid("dropoffPoint", "required for a SHARED trip") }
            if currentTripsPresent == .unspecified {
                throw .invalid("currentTripsPresent", "must be NONE or ANY for a SHARED trip")
            }
        }
        if includeBackToBack, currentTripsPresent != .unspecified {
            throw .invalid("includeBackToBack", "cannot be true when currentTripsPresent is \(currentTripsPresent.rawValue)")
        }
        if let tripId { try ResourceName.validateID(tripId, field: "tripId") }
    }

    private static func restriction(_ attribute: Attribute, field: String) throws(StatusError) -> AttributeRestriction {
        if attribute.key.isEmpty { throw .invalid("\(field).key", "required field is missing") }
        guard let text = attribute.filterText else { throw .invalid(field, "a value is required") }
        return AttributeRestriction(key: attribute.key, value: text)
    }

    private static func lists(_ lists: [AttributeList], field: String) throws(StatusError) -> [[AttributeRestriction]] {
        try lists.enumerated().map { i, list throws(StatusError) in
            try list.attributes.enumerated().map { k, attribute throws(StatusError) in
                try restriction(attribute, field: "\(field)[\(i)].attributes[\(k)]")
            }
        }
    }
}

extension VehicleSearchQuery: Decodable {
    enum CodingKeys: String, CodingKey {
        case header, parent, pickupPoint, dropoffPoint, pickupRadiusMeters, count, minimumCapacity, tripTypes, maximumStaleness
        case vehicleTypes, requiredAttributes, requiredOneOfAttributes, requiredOneOfAttributeSets, orderBy, includeBackToBack
        case tripId, currentTripsPresent, filter
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decodeIfSet(JSONValue.self, forKey: .header)
        _ = try c.decodeIfSet(String.self, forKey: .parent)
        pickupPoint = try c.decode(TerminalLocation.self, forKey: .pickupPoint)
        dropoffPoint = try c.decodeIfSet(TerminalLocation.self, forKey: .dropoffPoint)
        pickupRadiusMeters = try c.decode(Int.self, forKey: .pickupRadiusMeters)
        count = try c.decode(Int.self, forKey: .count)
        minimumCapacity = try c.decode(Int.self, forKey: .minimumCapacity)
        tripTypes = try c.decodeArray(TripType.self, forKey: .tripTypes)
        maximumStaleness = try c.decodeIfSet(ProtoDuration.self, forKey: .maximumStaleness)
        vehicleTypes = try c.decodeArray(VehicleType.self, forKey: .vehicleTypes)
        requiredAttributes = try c.decodeArray(Attribute.self, forKey: .requiredAttributes)
        requiredOneOfAttributes = try c.decodeArray(AttributeList.self, forKey: .requiredOneOfAttributes)
        requiredOneOfAttributeSets = try c.decodeArray(AttributeList.self, forKey: .requiredOneOfAttributeSets)
        orderBy = try c.decodeIfSet(Order.self, forKey: .orderBy) ?? .unknown
        includeBackToBack = try c.decodeIfSet(Bool.self, forKey: .includeBackToBack) ?? false
        let trip = try c.decodeIfSet(String.self, forKey: .tripId)
        tripId = trip?.isEmpty == false ? trip : nil
        currentTripsPresent = try c.decodeIfSet(CurrentTripsPresent.self, forKey: .currentTripsPresent) ?? .unspecified
        filter = try c.decodeIfSet(String.self, forKey: .filter) ?? ""
    }
}
