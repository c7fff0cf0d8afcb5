import JSON

/// A `ListVehicles` request (Fleet Engine `ListVehiclesRequest`): every vehicle of the
/// provider that meets all the given conditions, by ID, a page at a time.
///
/// It decodes from the request's proto3 JSON (what the gRPC transport hands over); the REST
/// transport fills it from query parameters of the same names.
public struct VehicleListQuery: Hashable, Sendable {
    /// Vehicles per page; 0 means the default (100).
    public var pageSize: Int
    /// The previous page's `nextPageToken`.
    package var pageToken: String?
    /// Only vehicles with at least this `maximumCapacity`; at least 0.
    public var minimumCapacity: Int?
    /// Only vehicles that support at least one of these trip types.
    public var tripTypes: [TripType]
    /// Only vehicles that sent a location within this long; positive.
    package var maximumStaleness: ProtoDuration?
    /// Only vehicles of these categories: required, at least one.
    public var vehicleTypeCategories: [VehicleCategory]
    /// Attributes a vehicle must all have, each `key:value`.
    public var requiredAttributes: [String]
    /// Lists a vehicle must have at least one attribute of, each `key1:value1|key2:value2`.
    public var requiredOneOfAttributes: [String]
    /// Sets of which a vehicle must have every attribute of at least one, each
    /// `key1:value1|key2:value2`.
    package var requiredOneOfAttributeSets: [String]
    /// Only vehicles in this state.
    public var vehicleState: VehicleState?
    /// Only vehicles with current trips.
    package var onTripOnly: Bool
    /// An AIP-160 filter on attributes (``AttributeFilterParser``); exclusive with the
    /// `required*` fields.
    public var filter: String
    /// Only vehicles whose last location lies in this box.
    package var viewport: Viewport?

    /// A query with only the required categories set.
    public init(vehicleTypeCategories: [VehicleCategory], pageSize: Int = 0, pageToken: String? = nil) {
        self.vehicleTypeCategories = vehicleTypeCategories
        self.pageSize = pageSize
        self.pageToken = pageToken
        tripTypes = []
        requiredAttributes = []
        requiredOneOfAttributes = []
        requiredOneOfAttributeSets = []
        onTripOnly = false
        filter = ""
    }

    /// The conditions the request states, checked as Fleet Engine checks them; errors name
    /// the request field. `now` dates `maximumStaleness`.
    package func criteria(now: Timestamp) throws(StatusError) -> VehicleCriteria {
        if vehicleTypeCategories.isEmpty { throw .invalid("vehicleTypeCategories", "required field is missing; name at least one category") }
        try Check.count(vehicleTypeCategories, "vehicleTypeCategories", max: Limits.maximumShortList)
        try Check.count(tripTypes, "tripTypes", max: Limits.maximumShortList)
        if let minimumCapacity, minimumCapacity < 0 { throw .invalid("minimumCapacity", "\(minimumCapacity) is negative") }
        var criteria = VehicleCriteria()
        criteria.categories = vehicleTypeCategories
        criteria.minimumCapacity = minimumCapacity
        criteria.tripTypes = tripTypes
        criteria.vehicleState = vehicleState
        criteria.onTrip = onTripOnly ? true : nil
        if let maximumStaleness {
            criteria.locatedSince = try Self.locatedSince(now: now, staleness: maximumStaleness, field: "maximumStaleness")
        }
        if let viewport {
            try viewport.validate("viewport")
            criteria.area = viewport
        }
        criteria.attributes = try Self.attributeCondition(
            filter: filter,
            required: try requiredAttributes.enumerated().map { i, text throws(StatusError) in
                try Self.restriction(text, field: "requiredAttributes[\(i)]")
            },
            oneOf: try Self.lists(requiredOneOfAttributes, field: "requiredOneOfAttributes"),
            sets: try Self.lists(requiredOneOfAttributeSets, field: "requiredOneOfAttributeSets"))
        return criteria
    }

    /// `key:value` (the key has no colon; the value may).
    static func restriction(_ text: String, field: String) throws(StatusError) -> AttributeRestriction {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw .invalid(field, "'\(text.prefix(64))' is not of the form key:value")
        }
        return AttributeRestriction(key: String(text[..<colon]), value: String(text[text.index(after: colon)...]))
    }

    /// `key1:value1|key2:value2` lists.
    private static func lists(_ texts: [String], field: String) throws(StatusError) -> [[AttributeRestriction]] {
        try texts.enumerated().map { i, text throws(StatusError) in
            try text.split(separator: "|", omittingEmptySubsequences: false).map { part throws(StatusError) in
                try restriction(String(part), field: "\(field)[\(i)]")
            }
        }
    }

    /// The oldest location time `staleness` allows at `now`.
    static func locatedSince(now: Timestamp, staleness: ProtoDuration, field: String) throws(StatusError) -> Timestamp {
        guard staleness.seconds > 0 else { throw .invalid(field, "must be a positive duration, got \(staleness.text)") }
        return now.adding(seconds: -min(staleness.seconds, 1e9))
    }

    /// The one condition on attributes that `filter` or the `required*` fields state
    /// (Fleet Engine: `required` AND each `oneOf` list's OR AND the OR of the `sets`); nil
    /// when none is given. A non-empty filter with any of the others is refused.
    static func attributeCondition(
        filter: String, required: [AttributeRestriction], oneOf: [[AttributeRestriction]], sets: [[AttributeRestriction]]
    ) throws(StatusError) -> AttributeCondition? {
        let parsed = try AttributeFilterParser.parse(filter)
        let requirements = !required.isEmpty || !oneOf.isEmpty || !sets.isEmpty
        if parsed != nil, requirements {
            throw .invalid(
                "filter",
                "cannot be combined with requiredAttributes, requiredOneOfAttributes or requiredOneOfAttributeSets; "
                    + "state every condition in the filter")
        }
        if let parsed { return parsed }
        try Check.count(required, "requiredAttributes", max: AttributeFilterParser.maximumRestrictions)
        try Check.count(oneOf.joined(), "requiredOneOfAttributes", max: AttributeFilterParser.maximumRestrictions)
        try Check.count(sets.joined(), "requiredOneOfAttributeSets", max: AttributeFilterParser.maximumRestrictions)
        var parts = required.map(AttributeCondition.restriction)
        parts += oneOf.map { .any($0.map(AttributeCondition.restriction)) }
        if !sets.isEmpty { parts.append(.any(sets.map { .all($0.map(AttributeCondition.restriction)) })) }
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return .all(parts)
        }
    }
}

extension VehicleListQuery: Decodable {
    enum CodingKeys: String, CodingKey {
        case header, parent, pageSize, pageToken, minimumCapacity, tripTypes, maximumStaleness, vehicleTypeCategories
        case requiredAttributes, requiredOneOfAttributes, requiredOneOfAttributeSets, vehicleState, onTripOnly, filter
        case viewport
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decodeIfSet(JSONValue.self, forKey: .header)
        _ = try c.decodeIfSet(String.self, forKey: .parent)
        pageSize = try c.decodeIfSet(Int.self, forKey: .pageSize) ?? 0
        pageToken = try c.decodeIfSet(String.self, forKey: .pageToken)
        minimumCapacity = try c.decodeIfSet(Int.self, forKey: .minimumCapacity)
        tripTypes = try c.decodeArray(TripType.self, forKey: .tripTypes)
        maximumStaleness = try c.decodeIfSet(ProtoDuration.self, forKey: .maximumStaleness)
        vehicleTypeCategories = try c.decodeArray(VehicleCategory.self, forKey: .vehicleTypeCategories)
        requiredAttributes = try c.decodeArray(String.self, forKey: .requiredAttributes)
        requiredOneOfAttributes = try c.decodeArray(String.self, forKey: .requiredOneOfAttributes)
        requiredOneOfAttributeSets = try c.decodeArray(String.self, forKey: .requiredOneOfAttributeSets)
        vehicleState = try c.decodeIfSet(VehicleState.self, forKey: .vehicleState)
        onTripOnly = try c.decodeIfSet(Bool.self, forKey: .onTripOnly) ?? false
        filter = try c.decodeIfSet(String.self, forKey: .filter) ?? ""
        viewport = try c.decodeIfSet(Viewport.self, forKey: .viewport)
    }
}
