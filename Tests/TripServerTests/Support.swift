import Access
import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import JWTKit
import Render
import StoreVariants
import Synchronization
import TestKit
import Testing
import TripModel
import TripServer
import TripServerTesting
import TripStore

let secret = testTokenSecret
let epoch = ManualClock.testEpoch

/// A server over a fresh store with tokens for every role: a ``TripServerTesting/LocalServer``
/// with the tests' token secret, and no limits but those a test asks for.
struct Harness {
    let store: any TripStore
    /// The server the requests go to, in process.
    let local: LocalServer
    var authority: TokenAuthority { local.authority }
    var app: TripServerApp { local.app }

    /// A server over a fresh store of `kind` (or over `store`) on `clock` whose tokens are
    /// limited by `rateLimiter` (none by default: only the tests of the limit are about it),
    /// and requests by `limits` (no pixel budget by default), drawing previews (and map tiles,
    /// as `tiles` keeps them) over `basemap` when given, each client address limited on the map
    /// data routes to `mapDataRate` (none by default).
    init(
        _ kind: TestStoreKind = .memory, store: (any TripStore)? = nil, clock: WallClock = .fixed(epoch), basemap: BasemapLayer? = nil,
        rateLimiter: TokenRateLimiter = TokenRateLimiter(policy: .unlimited), limits: RequestLimits = RequestLimits(pixelsPerSecond: nil),
        tiles: MapTiles? = nil, mapDataRate: TokenRateLimiter.Rate? = nil
    ) async throws {
        if let store {
            self.store = store
        } else {
            self.store = try await TestStores.make(kind)
        }
        local = try await LocalServer(
            store: self.store, clock: clock, previewClock: .system,
            options: .init(
                hmacSecret: secret, basemap: basemap, tiles: tiles, limits: limits, rateLimiter: rateLimiter, mapDataRate: mapDataRate))
    }

    func token(_ principal: Principal) async throws -> String { try await authority.mint(principal) }
    /// A server token of provider `p`, where the tests' resources live.
    var server: Principal { Principal(role: .server, provider: "p") }
    /// A server token for every provider (what changing styles takes).
    var admin: Principal { Principal(role: .server, provider: Principal.allProviders) }
    func consumer(_ trip: String, provider: String = "p") -> Principal { Principal(role: .consumer, provider: provider, tripId: trip) }
    func driver(_ vehicle: String, provider: String = "p") -> Principal { Principal(role: .driver, provider: provider, vehicleId: vehicle) }

    /// Runs `body` with a client for the router (no sockets).
    @discardableResult
    func test<Value: Sendable>(_ body: @Sendable (Client) async throws -> Value) async throws -> Value {
        try await body(Client(transport: local.transport, authority: authority))
    }

    /// Creates vehicle `v1` and trip `t1` assigned to it.
    func seed(_ client: Client) async throws {
        try await client.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", as: server, body: Bodies.vehicle)
        try await client.expect(.ok, .post, "/v1/providers/p/trips?tripId=t1", as: server, body: Bodies.trip(vehicle: "v1"))
    }
}

/// A test client that sends JSON with a bearer token, through a ``TripServer/LocalTransport``
/// (or a HummingbirdTesting client, for a router a test has changed).
struct Client: Sendable {
    private let execute: @Sendable (HTTPRequest.Method, String, HTTPFields, [UInt8]?) async throws -> Reply
    let authority: TokenAuthority

    /// A client of `transport`'s server.
    init(transport: LocalTransport, authority: TokenAuthority) {
        execute = { method, uri, headers, body in
            let response = try await transport.send(method: method.rawValue, path: uri, body: body, headers: headers)
            return Reply(status: HTTPResponse.Status(code: response.status), headers: response.headers, body: response.body)
        }
        self.authority = authority
    }

    /// A client of the router behind `raw`.
    init(raw: any TestClientProtocol, authority: TokenAuthority) {
        execute = { method, uri, headers, body in
            let response = try await raw.executeRequest(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
            return Reply(status: response.status, headers: response.headers, body: Array(response.body.readableBytesView))
        }
        self.authority = authority
    }

    struct Reply: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> JSONValue { try JSONParser.parse(body) }
        /// The Google error's message, or "".
        var errorMessage: String {
            if case .string(let message)? = (try? json())?["error"]?["message"] { return message }
            return ""
        }
        var errorStatus: String {
            if case .string(let status)? = (try? json())?["error"]?["status"] { return status }
            return ""
        }
    }

    func send(
        _ method: HTTPRequest.Method, _ uri: String, as principal: Principal? = nil, token: String? = nil,
        body: String? = nil, headers: HTTPFields = [:]
    ) async throws -> Reply {
        var fields = headers
        if let token {
            fields[.authorization] = "Bearer \(token)"
        } else if let principal {
            fields[.authorization] = "Bearer \(try await authority.mint(principal))"
        }
        return try await execute(method, uri, fields, body.map { Array($0.utf8) })
    }

    @discardableResult
    func expect(
        _ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ uri: String, as principal: Principal? = nil,
        token: String? = nil, body: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        let reply = try await send(method, uri, as: principal, token: token, body: body)
        #expect(reply.status == status, "\(method) \(uri): \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }
}

enum Bodies {
    static let vehicle = """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
         "vehicleType": {"category": "AUTO"},
         "lastLocation": {"location": {"latitude": 37.39, "longitude": -122.0}}}
        """

    static func trip(vehicle: String? = nil) -> String {
        """
        {"tripType": "EXCLUSIVE", "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
         "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}\(vehicle.map { #", "vehicleId": "\#($0)""# } ?? "")}
        """
    }

    static func location(_ lat: Double, _ lng: Double) -> String {
        #"{"lastLocation": {"location": {"latitude": \#(lat), "longitude": \#(lng)}}}"#
    }

    static func status(_ status: String) -> String { #"{"tripStatus": "\#(status)"}"# }
}
