import Access
import Fleet
import Hummingbird
import TripModel
import TripStore

/// The vehicle resource (DESIGN §3): create, get (with versions), update, list, search,
/// delete, and UpdateVehicleAttributes.
struct VehicleRoutes {
    let fleet: Fleet
    let metrics: RequestMetrics

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.post("/v1/providers/{provider}/vehicles", use: create)
        router.get("/v1/providers/{provider}/vehicles", use: list)
        router.post("/v1/providers/{provider}/vehicles:search", use: search)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}", use: get)
        router.put("/v1/providers/{provider}/vehicles/{vehicleId}", use: update)
        router.patch("/v1/providers/{provider}/vehicles/{vehicleId}", use: update)
        router.delete("/v1/providers/{provider}/vehicles/{vehicleId}", use: delete)
        router.post("/v1/providers/{provider}/vehicles/{vehicleId}:updateAttributes", use: updateAttributes)
    }

    @Sendable func create(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "create vehicles")
        let provider = try context.pathParameter("provider")
        let id = try request.requiredQuery("vehicleId")
        let extensions = try request.resourceExtensions()
        let input = try await request.decodeBody(Vehicle.self, root: "vehicle", context: context)
        return try JSONResponse.make(try await fleet.createVehicle(provider: provider, id: id, input: input), extensions: extensions)
    }

    @Sendable func get(_ request: Request, context: TripRequestContext) async throws -> Response {
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(try context.caller(), vehicleId: id, write: false)
        let options = VehicleReadOptions(
            currentRouteSegmentVersion: try request.timestampQuery("currentRouteSegmentVersion"),
            waypointsVersion: try request.timestampQuery("waypointsVersion"))
        return try JSONResponse.make(
            try await fleet.vehicle(provider: try context.pathParameter("provider"), id: id, options: options),
            extensions: try request.resourceExtensions())
    }

    /// UpdateVehicleAttributesRequest's body (its `header` is read apart).
    struct AttributesRequest: Decodable {
        var attributes: [Attribute]?
    }

    /// UpdateVehicleAttributesResponse.
    struct AttributesResponse: Encodable {
        var attributes: [Attribute]
    }

    /// UpdateVehicleAttributes: merges by key, answers the whole list. The provider's, as
    /// the attributes are (a driver may not write them).
    @Sendable func updateAttributes(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "update vehicle attributes")
        let body = try await request.decodeRequestBody(AttributesRequest.self, context: context, metrics: metrics)
        let merged = try await fleet.updateVehicleAttributes(
            provider: try context.pathParameter("provider"), id: try context.pathParameter("vehicleId"), attributes: body.attributes ?? [])
        return try JSONResponse.make(AttributesResponse(attributes: merged))
    }

    @Sendable func update(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(principal, vehicleId: id, write: true)
        let mask = FieldMask(try request.requiredQuery("updateMask"))
        try AccessPolicy.checkVehicleUpdate(principal, vehicleId: id, mask: mask)
        let extensions = try request.resourceExtensions()
        let input = try await request.decodeBody(Vehicle.self, root: "vehicle", context: context)
        let provider = try context.pathParameter("provider")
        return JSONResponse.written(try await fleet.updateVehicleJSON(provider: provider, id: id, input: input, mask: mask, extensions: extensions))
    }

    struct SearchResponse: Encodable {
        var matches: [VehicleMatch]
    }

    @Sendable func search(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "search vehicles")
        let extensions = try request.resourceExtensions()
        let query = try await request.decodeRequestBody(VehicleSearchQuery.self, context: context, metrics: metrics)
        let matches = try await fleet.searchVehicles(provider: try context.pathParameter("provider"), query: query)
        return try JSONResponse.make(SearchResponse(matches: matches), extensions: extensions)
    }

    @Sendable func delete(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "delete vehicles")
        try await fleet.deleteVehicle(provider: try context.pathParameter("provider"), id: try context.pathParameter("vehicleId"))
        return JSONResponse.empty()
    }
}
