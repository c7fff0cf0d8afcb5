import Access
import Hummingbird
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct AccessMatrixTests {
    /// The role matrix of DESIGN §4, route by route, for a consumer of t1, a consumer of
    /// another trip, the driver of v1, the driver of another vehicle and a server.
    @Test(arguments: TestStoreKind.available) func roleMatrix(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server, body: Bodies.vehicle)
            try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t2", as: harness.server, body: Bodies.trip(vehicle: "v2"))
            let consumer = harness.consumer("t1")
            let otherConsumer = harness.consumer("t2")
            let driver = harness.driver("v1")
            let otherDriver = harness.driver("v2")
            let server = harness.server
            typealias Row = (HTTPRequest.Method, String, String?, [(Principal, HTTPResponse.Status)])
            let rows: [Row] = [
                (
                    .get, "/v1/providers/p/trips/t1?view=JOURNEY_SHARING_V1S", nil,
                    [(consumer, .ok), (otherConsumer, .forbidden), (driver, .ok), (otherDriver, .notFound), (server, .ok)]
                ),
                (.get, "/v1/providers/p/trips/t1", nil, [(consumer, .ok), (driver, .ok), (server, .ok)]),
                (.get, "/v1/providers/p/trips/t1?view=SDK", nil, [(consumer, .forbidden), (driver, .ok), (server, .ok)]),
                (
                    .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", Bodies.status("NEW"),
                    [(consumer, .forbidden), (otherDriver, .notFound), (driver, .ok), (server, .ok)]
                ),
                (
                    .put, "/v1/providers/p/trips/t1?updateMask=numberOfPassengers", #"{"numberOfPassengers": 2}"#,
                    [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]
                ),
                (.post, "/v1/providers/p/trips?tripId=t9", Bodies.trip(), [(consumer, .forbidden), (driver, .forbidden)]),
                (.post, "/v1/providers/p/trips:search", "{}", [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (.delete, "/v1/providers/p/trips/t2", nil, [(consumer, .forbidden), (otherConsumer, .forbidden), (otherDriver, .forbidden)]),
                (.get, "/v1/providers/p/vehicles/v1", nil, [(consumer, .forbidden), (driver, .ok), (otherDriver, .forbidden), (server, .ok)]),
                (
                    .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", Bodies.location(37.395, -122.0),
                    [(consumer, .forbidden), (otherDriver, .forbidden), (driver, .ok), (server, .ok)]
                ),
                (
                    .patch, "/v1/providers/p/vehicles/v1?updateMask=maximumCapacity", #"{"maximumCapacity": 6}"#,
                    [(driver, .forbidden), (server, .ok)]
                ),
                (.get, "/v1/providers/p/vehicles?vehicleTypeCategories=AUTO", nil, [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]),
                (
                    .post, "/v1/providers/p/vehicles:search",
                    #"{"pickupPoint": {"point": {"latitude": 37.4, "longitude": -122}}, "pickupRadiusMeters": 2000, "count": 5, "minimumCapacity": 1, "tripTypes": ["EXCLUSIVE"], "vehicleTypes": [{"category": "AUTO"}], "orderBy": "PICKUP_POINT_ETA"}"#,
                    [(consumer, .forbidden), (driver, .forbidden), (server, .ok)]
                ),
                (.post, "/v1/providers/p/vehicles?vehicleId=v9", Bodies.vehicle, [(consumer, .forbidden), (driver, .forbidden)]),
                (.delete, "/v1/providers/p/vehicles/v1", nil, [(consumer, .forbidden), (driver, .forbidden)]),
            ]
            for (method, uri, body, expectations) in rows {
                for (principal, status) in expectations {
                    let reply = try await client.send(method, uri, as: principal, body: body)
                    #expect(
                        reply.status == status,
                        "\(principal.role.rawValue) \(principal.tripId ?? principal.vehicleId ?? "") \(method) \(uri): \(reply.text)")
                    if status == .forbidden { #expect(reply.errorStatus == "PERMISSION_DENIED") }
                }
            }
        }
    }

    /// A driver gets the same answer for another vehicle's trip as for a trip that does not
    /// exist (issue 29, item 6: no oracle of which trip IDs exist), on every trip route a
    /// driver may use.
    @Test(arguments: TestStoreKind.available) func driverCannotTellAnotherVehiclesTripFromAMissingOne(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v2", as: harness.server, body: Bodies.vehicle)
            let otherDriver = harness.driver("v2")
            let asks: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/v1/providers/p/trips/ID", nil),
                (.put, "/v1/providers/p/trips/ID?updateMask=tripStatus", Bodies.status("ENROUTE_TO_PICKUP")),
                (.get, "/v1/providers/p/trips/ID/preview.png", nil),
                (.get, "/v1/providers/p/trips/ID/events", nil),
            ]
            for (method, uri, body) in asks {
                let theirs = try await client.send(method, uri.replacingOccurrences(of: "ID", with: "t1"), as: otherDriver, body: body)
                let missing = try await client.send(method, uri.replacingOccurrences(of: "ID", with: "t0"), as: otherDriver, body: body)
                #expect(theirs.status == .notFound, "\(method) \(uri): \(theirs.text)")
                #expect(theirs.status == missing.status, "\(method) \(uri)")
                #expect(theirs.text.replacingOccurrences(of: "t1", with: "t0") == missing.text, "\(method) \(uri)")
            }
            let trip = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.server)
            #expect(try trip.json()["tripStatus"] == .string("NEW"), "the other driver's update changed nothing")
        }
    }

    /// A consumer asking without a view gets the journey-sharing view.
    @Test(arguments: TestStoreKind.available) func consumerDefaultView(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let reply = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.consumer("t1"))
            #expect(try reply.json()["view"] == .string("JOURNEY_SHARING_V1S"))
            let sdk = try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.server)
            #expect(try sdk.json()["view"] == .string("SDK"))
        }
    }
}

@Suite struct ProviderBindingTests {
    /// Every route with a `{provider}` in its path refuses a token of another provider with
    /// 403 before doing anything: a rider of pa's t1, the driver of pa's v1 and pa's server
    /// on pb's t1 and v1. Routes are taken from the router, so a route added later is covered
    /// by this test too.
    @Test func everyProviderRouteRefusesOtherProviders() async throws {
        let harness = try await Harness()
        let router = harness.app.makeRouter()
        let routes = router.routes.map { (method: $0.method, path: $0.path.description) }.filter { $0.path.contains("{provider}") }
        #expect(routes.count >= 20, "\(routes.map(\.path))")
        let tokens = [
            harness.consumer("t1", provider: "pa"), harness.driver("v1", provider: "pa"), Principal(role: .server, provider: "pa"),
        ]
        try await harness.test { client in
            try await Self.seed(client, harness)
            for route in routes {
                let uri = route.path.replacingOccurrences(of: "{provider}", with: "pb")
                    .replacingOccurrences(of: "{vehicleId}", with: "v1").replacingOccurrences(of: "{tripId}", with: "t1")
                    .replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
                for principal in tokens {
                    let reply = try await client.send(
                        route.method, uri + "?updateMask=tripStatus&vehicleId=v9&tripId=t9",
                        as: principal, body: "{}")
                    #expect(reply.status == .forbidden, "\(principal.role) of pa: \(route.method) \(uri): \(reply.text)")
                    #expect(reply.errorStatus == "PERMISSION_DENIED")
                    #expect(reply.errorMessage.contains("for provider 'pa', not 'pb'"), "\(reply.errorMessage)")
                }
            }
            // Nothing of pb's changed.
            let trip = try await client.expect(.ok, .get, "/v1/providers/pb/trips/t1", as: Principal(role: .server, provider: "pb"))
            #expect(try trip.json()["tripStatus"] == .string("NEW"))
        }
    }

    /// The same tokens work on their own provider's resources of the same IDs, and a server
    /// token for every provider works on both.
    @Test func ownProviderStillWorks() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await Self.seed(client, harness)
            try await client.expect(.ok, .get, "/v1/providers/pa/trips/t1", as: harness.consumer("t1", provider: "pa"))
            try await client.expect(.ok, .get, "/v1/providers/pa/trips/t1/preview.png", as: harness.consumer("t1", provider: "pa"))
            try await client.expect(
                .ok, .put, "/v1/providers/pa/vehicles/v1?updateMask=lastLocation", as: harness.driver("v1", provider: "pa"),
                body: Bodies.location(37.395, -122.0))
            try await client.expect(.ok, .get, "/v1/providers/pa/vehicles/v1/navInfo", as: harness.driver("v1", provider: "pa"))
            try await client.expect(.ok, .get, "/v1/providers/pa/vehicles?vehicleTypeCategories=AUTO", as: Principal(role: .server, provider: "pa"))
            for provider in ["pa", "pb"] {
                try await client.expect(.ok, .get, "/v1/providers/\(provider)/vehicles/v1", as: harness.admin)
            }
            // pb's vehicle did not move with pa's.
            let theirs = try await client.expect(.ok, .get, "/v1/providers/pb/vehicles/v1", as: harness.admin)
            #expect(try theirs.json()["lastLocation"]?["location"]?["latitude"] == .number(37.39, integer: nil))
        }
    }

    /// The share page shows the trip of the token's provider, though another provider has a
    /// trip of the same ID.
    @Test func sharePageUsesTheTokensProvider() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await Self.seed(client, harness)
            for provider in ["pa", "pb"] {
                let rider = try await harness.token(harness.consumer("t1", provider: provider))
                let page = try await client.send(.get, "/share/\(rider)")
                #expect(page.status == .ok, "\(page.text)")
                #expect(page.text.contains(#"data-provider="\#(provider)" data-trip="t1""#))
            }
        }
    }

    /// Style changes reach every provider's previews, so a server token of one provider may
    /// read styles but not change them.
    @Test func stylesNeedATokenForEveryProvider() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            try await client.expect(.ok, .get, "/v1/styles/default", as: harness.server)
            let refused = try await client.expect(
                .forbidden, .put, "/v1/styles/default/polylines/activeRoute",
                as: harness.server, body: #"{"width": 9}"#)
            #expect(refused.errorMessage.contains("--provider '*'"))
            try await client.expect(.ok, .put, "/v1/styles/default/polylines/activeRoute", as: harness.admin, body: #"{"width": 9}"#)
        }
    }

    /// Providers pa and pb, each with vehicle v1 and trip t1 on it.
    static func seed(_ client: Client, _ harness: Harness) async throws {
        for provider in ["pa", "pb"] {
            let server = Principal(role: .server, provider: provider)
            try await client.expect(.ok, .post, "/v1/providers/\(provider)/vehicles?vehicleId=v1", as: server, body: Bodies.vehicle)
            try await client.expect(.ok, .post, "/v1/providers/\(provider)/trips?tripId=t1", as: server, body: Bodies.trip(vehicle: "v1"))
        }
    }
}
