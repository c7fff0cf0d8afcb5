import Access
import Fleet
import Geo
import Hummingbird
import TripModel
import TripStore

// ListVehicles over REST: Google's HTTP mapping puts the request's fields in the query
// string under their proto3 JSON names (or their proto names), a repeated field as a repeated
// parameter and the viewport's corners as dotted names (`viewport.low.latitude`). This parses
// them into the model's request; the model checks it (VehicleListQuery.criteria).

extension VehicleRoutes {
    @Sendable func list(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "list vehicles")
        let query = try Self.listQuery(Array(request.uri.queryParameters.map { (String($0.key), String($0.value)) }))
        let result = try await fleet.listVehicles(provider: try context.pathParameter("provider"), query: query)
        return try JSONResponse.make(VehicleListResponse(result), extensions: try request.resourceExtensions())
    }

    /// The request the query parameters state, in their order; an unknown parameter or a
    /// malformed value is INVALID_ARGUMENT naming it.
    static func listQuery(_ parameters: [(name: String, value: String)]) throws(APIError) -> VehicleListQuery {
        var query = VehicleListQuery(vehicleTypeCategories: [])
        var corners: [String: Double] = [:]
        for (rawName, value) in parameters {
            let name = ListParameter.canonical(rawName)
            switch name {
            case "pageSize": query.pageSize = try integer(value, name, 0...Limits.maximumPageSize)
            case "pageToken": query.pageToken = value
            case "minimumCapacity": query.minimumCapacity = try integer(value, name, Int(Int32.min)...Int(Int32.max))
            case "tripTypes": query.tripTypes.append(try enumValue(TripType.self, value, name))
            case "maximumStaleness":
                guard let duration = ProtoDuration(text: value) else {
                    throw .invalid("\(name): '\(value.prefix(32))' is not a duration such as \"300s\"")
                }
                query.maximumStaleness = duration
            case "vehicleTypeCategories":
                if value == "UNKNOWN" { throw .invalid("\(name): UNKNOWN is not allowed; name a category") }
                query.vehicleTypeCategories.append(try enumValue(VehicleCategory.self, value, name))
            case "requiredAttributes": query.requiredAttributes.append(value)
            case "requiredOneOfAttributes": query.requiredOneOfAttributes.append(value)
            case "requiredOneOfAttributeSets": query.requiredOneOfAttributeSets.append(value)
            case "vehicleState":
                query.vehicleState = value == "UNKNOWN_VEHICLE_STATE" ? nil : try enumValue(VehicleState.self, value, name)
            case "onTripOnly":
                guard let flag = Bool(value) else { throw .invalid("\(name): '\(value.prefix(32))' is not true or false") }
                query.onTripOnly = flag
            case "filter": query.filter = value
            case "viewport.low.latitude", "viewport.low.longitude", "viewport.high.latitude", "viewport.high.longitude":
                guard let number = Double(value), number.isFinite else { throw .invalid("\(name): '\(value.prefix(32))' is not a number") }
                corners[name] = number
            case _ where name.hasPrefix("header."): break // the SDK's request header: accepted, not needed here
            default: throw .invalid("unknown query parameter '\(rawName.prefix(64))'")
            }
        }
        if !corners.isEmpty {
            func corner(_ name: String) throws(APIError) -> Double {
                guard let value = corners["viewport." + name] else { throw .invalid("viewport.\(name): required field is missing") }
                return value
            }
            query.viewport = Viewport(
                low: LatLng(latitude: try corner("low.latitude"), longitude: try corner("low.longitude")),
                high: LatLng(latitude: try corner("high.latitude"), longitude: try corner("high.longitude")))
        }
        return query
    }

    private static func integer(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .invalid("\(name): '\(text.prefix(32))' is not an integer in [\(range.lowerBound), \(range.upperBound)]")
        }
        return value
    }

    private static func enumValue<E: WireEnum>(_ type: E.Type, _ text: String, _ name: String) throws(APIError) -> E {
        guard let value = E(rawValue: text) else {
            throw .invalid("\(name): unknown value '\(text.prefix(64))'; expected one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}

/// ListVehicles' query parameter names: the proto3 JSON name, or the proto field name.
enum ListParameter {
    private static let protoNames: [String: String] = [
        "page_size": "pageSize", "page_token": "pageToken", "minimum_capacity": "minimumCapacity", "trip_types": "tripTypes",
        "maximum_staleness": "maximumStaleness", "vehicle_type_categories": "vehicleTypeCategories",
        "required_attributes": "requiredAttributes", "required_one_of_attributes": "requiredOneOfAttributes",
        "required_one_of_attribute_sets": "requiredOneOfAttributeSets", "vehicle_state": "vehicleState", "on_trip_only": "onTripOnly",
    ]

    /// The JSON name of a parameter given by either name.
    static func canonical(_ name: String) -> String { protoNames[name] ?? name }
}
