import Access
import Fleet
import Hummingbird
import TripModel
import TripStore

/// The vehicle resource (DESIGN §3): create, get, update, list, search, delete.
struct VehicleRoutes {
    let fleet: Fleet

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.post("/v1/providers/{provider}/vehicles", use: create)
        router.get("/v1/providers/{provider}/vehicles", use: list)
        router.post("/v1/providers/{provider}/vehicles:search", use: search)
        router.get("/v1/providers/{provider}/vehicles/{vehicleId}", use: get)
        router.put("/v1/providers/{provider}/vehicles/{vehicleId}", use: update)
        router.patch("/v1/providers/{provider}/vehicles/{vehicleId}", use: update)
        router.delete("/v1/providers/{provider}/vehicles/{vehicleId}", use: delete)
    }

    @Sendable func create(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "create vehicles")
        let provider = try context.pathParameter("provider")
        let id = try request.requiredQuery("vehicleId")
        let input = try await request.decodeBody(Vehicle.self, root: "vehicle", context: context)
        return try JSONResponse.make(try await fleet.createVehicle(provider: provider, id: id, input: input))
    }

    @Sendable func get(_ request: Request, context: TripRequestContext) async throws -> Response {
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(try context.caller(), vehicleId: id, write: false)
        return try JSONResponse.make(try await fleet.vehicle(provider: try context.pathParameter("provider"), id: id))
    }

    @Sendable func update(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let id = try context.pathParameter("vehicleId")
        try AccessPolicy.checkVehicle(principal, vehicleId: id, write: true)
        let mask = FieldMask(try request.requiredQuery("updateMask"))
        try AccessPolicy.checkVehicleUpdate(principal, vehicleId: id, mask: mask)
        let input = try await request.decodeBody(Vehicle.self, root: "vehicle", context: context)
        let provider = try context.pathParameter("provider")
        return JSONResponse.bytes(try await fleet.updateVehicleJSON(provider: provider, id: id, input: input, mask: mask))
    }

    struct ListResponse: Encodable {
        var vehicles: [Vehicle]
        var nextPageToken: String?
    }

    @Sendable func list(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "list vehicles")
        let page = try PageRequest(
            pageSize: try request.integerQuery("pageSize", 0...Limits.maximumPageSize) ?? 0,
            pageToken: request.query("pageToken"))
        let result = try await fleet.listVehicles(provider: try context.pathParameter("provider"), page: page)
        return try JSONResponse.make(ListResponse(vehicles: result.items, nextPageToken: result.nextPageToken))
    }

    struct SearchResponse: Encodable {
        var matches: [VehicleMatch]
    }

    @Sendable func search(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "search vehicles")
        let query = try await request.decodeBody(VehicleSearchQuery.self, root: "", context: context)
        try query.validate()
        let matches = try await fleet.searchVehicles(provider: try context.pathParameter("provider"), query: query)
        return try JSONResponse.make(SearchResponse(matches: matches))
    }

    @Sendable func delete(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "delete vehicles")
        try await fleet.deleteVehicle(provider: try context.pathParameter("provider"), id: try context.pathParameter("vehicleId"))
        return JSONResponse.empty()
    }
}
