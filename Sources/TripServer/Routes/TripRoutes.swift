import Access
import Fleet
import Hummingbird
import JSON
import TripModel
import TripStore

/// The trip resource (DESIGN §3): create, get (with views), update, search, delete.
struct TripRoutes {
    let fleet: Fleet
    /// Encoded views of unchanged trips.
    var views = EncodedViewCache()

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.post("/v1/providers/{provider}/trips", use: create)
        router.post("/v1/providers/{provider}/trips:search", use: search)
        router.get("/v1/providers/{provider}/trips/{tripId}", use: get)
        router.put("/v1/providers/{provider}/trips/{tripId}", use: update)
        router.patch("/v1/providers/{provider}/trips/{tripId}", use: update)
        router.delete("/v1/providers/{provider}/trips/{tripId}", use: delete)
    }

    @Sendable func create(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "create trips")
        let provider = try context.pathParameter("provider")
        let id = try request.requiredQuery("tripId")
        let input = try await request.decodeBody(Trip.self, root: "trip", context: context)
        return try JSONResponse.make(try await fleet.createTrip(provider: provider, id: id, input: input))
    }

    /// The view asked for, defaulting to what the caller may see.
    static func view(_ request: Request, _ principal: Principal) throws(APIError) -> TripView {
        guard let text = request.query("view"), !text.isEmpty else { return AccessPolicy.tripView(requested: nil, for: principal) }
        guard let view = TripView(rawValue: text) else {
            throw .invalid("view: unknown value '\(text.prefix(40))'; expected SDK or JOURNEY_SHARING_V1S")
        }
        return AccessPolicy.tripView(requested: view, for: principal)
    }

    /// Loads a trip the caller may read, with the view it asked for.
    func readableTrip(_ request: Request, context: TripRequestContext) async throws -> (stored: Revisioned<Trip>, view: TripView) {
        let principal = try context.caller()
        let id = try context.pathParameter("tripId")
        let view = try Self.view(request, principal)
        try AccessPolicy.checkTripRead(principal, tripId: id, view: view)
        let stored = try await fleet.revisionedTrip(provider: try context.pathParameter("provider"), id: id)
        try AccessPolicy.checkDriver(principal, trip: stored.value)
        return (stored, view)
    }

    @Sendable func get(_ request: Request, context: TripRequestContext) async throws -> Response {
        let (stored, view) = try await readableTrip(request, context: context)
        let json = try views.json(key: "\(stored.value.name)/\(view.rawValue)", revision: stored.revision) {
            Array(try JSONCoding.encode(stored.value.rendered(as: view)))
        }
        return JSONResponse.bytes(json)
    }

    @Sendable func update(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let provider = try context.pathParameter("provider")
        let id = try context.pathParameter("tripId")
        let mask = FieldMask(try request.requiredQuery("updateMask"))
        try AccessPolicy.checkTripWrite(principal, mask: mask)
        if principal.role == .driver {
            try AccessPolicy.checkDriver(principal, trip: try await fleet.trip(provider: provider, id: id))
        }
        let input = try await request.decodeBody(Trip.self, root: "trip", context: context)
        return try JSONResponse.make(try await fleet.updateTrip(provider: provider, id: id, input: input, mask: mask))
    }

    struct SearchResponse: Encodable {
        var trips: [Trip]
        var nextPageToken: String?
    }

    @Sendable func search(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "search trips")
        let body = try await request.decodeBody(TripSearchRequest.self, root: "", context: context)
        let page = try await fleet.searchTrips(provider: try context.pathParameter("provider"), query: try body.query())
        return try JSONResponse.make(SearchResponse(trips: page.items, nextPageToken: page.nextPageToken))
    }

    @Sendable func delete(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "delete trips")
        try await fleet.deleteTrip(provider: try context.pathParameter("provider"), id: try context.pathParameter("tripId"))
        return JSONResponse.empty()
    }
}
