import Access
import Fleet
import Hummingbird
import JSON
import TripModel
import TripStore

/// The trip resource (DESIGN §3): create, get (with views, versions and route formats),
/// update, search, delete, and ReportBillableTrip.
struct TripRoutes {
    let fleet: Fleet
    let metrics: RequestMetrics
    /// Encoded views of unchanged trips.
    let views: EncodedViewCache<[UInt8]>

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.post("/v1/providers/{provider}/trips", use: create)
        router.post("/v1/providers/{provider}/trips:search", use: search)
        router.get("/v1/providers/{provider}/trips/{tripId}", use: get)
        router.put("/v1/providers/{provider}/trips/{tripId}", use: update)
        router.patch("/v1/providers/{provider}/trips/{tripId}", use: update)
        router.delete("/v1/providers/{provider}/trips/{tripId}", use: delete)
        router.post("/v1/providers/{provider}/billableTrips/{tripId}:report", use: reportBillable)
    }

    @Sendable func create(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "create trips")
        let provider = try context.pathParameter("provider")
        let id = try request.requiredQuery("tripId")
        let input = try await request.decodeBody(Trip.self, root: "trip", context: context)
        return try JSONResponse.make(try await fleet.createTrip(provider: provider, id: id, input: input))
    }

    /// The view asked for (by name or number), defaulting to what the caller may see.
    static func view(_ request: Request, _ principal: Principal) throws(APIError) -> TripView {
        let view = try request.enumQuery("view", TripView.self) ?? .unspecified
        return AccessPolicy.tripView(requested: view == .unspecified ? nil : view, for: principal)
    }

    /// GetTrip's parameters: the view, the versions the caller has, the route format.
    static func readOptions(_ request: Request, _ principal: Principal) throws(APIError) -> TripReadOptions {
        var options = TripReadOptions(view: try view(request, principal))
        options.currentRouteSegmentVersion = try request.timestampQuery("currentRouteSegmentVersion")
        options.remainingWaypointsVersion = try request.timestampQuery("remainingWaypointsVersion")
        options.routeFormatType = try request.enumQuery("routeFormatType", PolylineFormatType.self)
        options.currentRouteSegmentTrafficVersion = try request.timestampQuery("currentRouteSegmentTrafficVersion")
        options.remainingWaypointsRouteVersion = try request.timestampQuery("remainingWaypointsRouteVersion")
        return options
    }

    /// A plain view is answered from the view encoded for the trip's current revision when
    /// one is kept: the store then reads the trip's versions only (issue 30).
    @Sendable func get(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let provider = try context.pathParameter("provider")
        let id = try context.pathParameter("tripId")
        let options = try Self.readOptions(request, principal)
        try AccessPolicy.checkTripRead(principal, tripId: id, view: options.view)
        let view = options.view
        let key = "providers/\(provider)/trips/\(id)/\(view.rawValue)"
        let answerKept = options.isPlainView && !AccessPolicy.checkDriverNeedsTrip(principal)
        let stored: Revisioned<Trip>
        switch try await fleet.trip(provider: provider, id: id, known: answerKept ? { views.cached(key: key, revision: $0) } : nil) {
        case .known(let json): return JSONResponse.bytes(json)
        case .read(let trip): stored = trip
        }
        try AccessPolicy.checkDriver(principal, trip: stored.value)
        guard options.isPlainView else { return try JSONResponse.make(stored.value.rendered(options)) }
        let json = try views.encoded(key: key, revision: stored.revision, missed: answerKept) {
            Array(try JSONCoding.encode(stored.value.rendered(as: view)))
        }
        return JSONResponse.bytes(json)
    }

    @Sendable func update(_ request: Request, context: TripRequestContext) async throws -> Response {
        let principal = try context.caller()
        let provider = try context.pathParameter("provider")
        let id = try context.pathParameter("tripId")
        let mask = FieldMask(try request.requiredQuery("updateMask"))
        try await AccessPolicy.checkTripWrite(principal, mask: mask) { try await fleet.trip(provider: provider, id: id) }
        let input = try await request.decodeBody(Trip.self, root: "trip", context: context)
        return try JSONResponse.make(try await fleet.updateTrip(provider: provider, id: id, input: input, mask: mask))
    }

    struct SearchResponse: Encodable {
        var trips: [Trip]
        var nextPageToken: String?
    }

    @Sendable func search(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "search trips")
        let body = try await request.decodeRequestBody(TripSearchRequest.self, context: context, metrics: metrics)
        let page = try await fleet.searchTrips(
            provider: try context.pathParameter("provider"), query: try body.query(), minimumStaleness: body.minimumStaleness)
        return try JSONResponse.make(SearchResponse(trips: page.items, nextPageToken: page.nextPageToken))
    }

    /// ReportBillableTrip: records the trip as billable, once (a repeat succeeds and changes
    /// nothing); the answer is empty, as Fleet Engine's.
    @Sendable func reportBillable(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "report billable trips")
        let report = try await request.decodeRequestBody(BillableTripReport.self, context: context, metrics: metrics)
        try await fleet.reportBillableTrip(provider: try context.pathParameter("provider"), id: try context.pathParameter("tripId"), report: report)
        return JSONResponse.empty()
    }

    @Sendable func delete(_ request: Request, context: TripRequestContext) async throws -> Response {
        try AccessPolicy.requireServer(try context.caller(), "delete trips")
        try await fleet.deleteTrip(provider: try context.pathParameter("provider"), id: try context.pathParameter("tripId"))
        return JSONResponse.empty()
    }
}
