import Access
import Foundation
import Geo
import Hummingbird
import HummingbirdTesting
import Navigation
import PostgresStore
import SQLiteStore
import StoreVariants
import TripModel
import TripServer
import TripStore

/// A server over a new persistent database (reopenable, to test restarts) and tokens for it.
struct NavServer {
    let database: Database
    let authority: TokenAuthority

    /// Where the test's data lives: an SQLite file, or a PostgreSQL schema of its own.
    enum Database {
        case sqlite(String)
        case postgres(PostgresLocation)
    }

    init(_ kind: TestStoreKind = .sqlite) async throws {
        switch kind {
        case .postgres: database = .postgres(try TestStores.requirePostgres().inSchema(TestStores.freshSchema()))
        case .sqlite, .memory: database = .sqlite(try TestStores.temporarySQLitePath())
        }
        authority = try await TokenAuthority(hmacSecret: Array(repeating: 7, count: 32))
    }

    /// A new store object and application on the same database: a restarted server.
    func app() async throws -> TripServerApp {
        let store: any TripStore =
            switch database {
            case .sqlite(let path): try SQLiteTripStore(path: path)
            case .postgres(let location):
                try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
            }
        return TripServerApp(
            store: store, authority: authority, rateLimiter: TokenRateLimiter(policy: .unlimited), limits: RequestLimits(pixelsPerSecond: nil))
    }

    func token(_ role: Role, trip: String? = nil, vehicle: String? = nil) async throws -> String {
        switch role {
        case .server: try await authority.mint(Principal(role: .server, provider: "p", subject: "test"))
        case .driver: try await authority.mint(Principal(role: .driver, provider: "p", vehicleId: vehicle, subject: "test"))
        case .consumer: try await authority.mint(Principal(role: .consumer, provider: "p", tripId: trip, subject: "test"))
        }
    }
}

extension TestClientProtocol {
    /// Sends `body` (JSON text) with a bearer token.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String, body: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        fields[.authorization] = "Bearer \(token)"
        if body != nil { fields[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) })
    }

    /// Sends an encodable body.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String, json: some Encodable) async throws -> TestResponse {
        try await send(method, uri, token: token, body: String(decoding: try JSONEncoder().encode(json), as: UTF8.self))
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The body decoded as `T`.
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// Routes and vehicle updates for the navigation tests.
enum NavFixtures {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    /// A straight route east from `origin`, `count` points `spacing` metres apart, a turn step
    /// every 10 points, driven at 10 m/s, ending at its one destination.
    static func eastRoute(
        from origin: LatLng = LatLng(latitude: 52.52, longitude: 13.40), count: Int = 61,
        spacing: Double = 50
    ) -> NavRoute {
        let dLng = spacing / LocalPlane.metersPerDegree / cos(origin.latitude * .pi / 180)
        let grid = (0..<count).map { LatLng(latitude: origin.latitude, longitude: origin.longitude + Double($0) * dLng) }
        let encoded = EncodedPolyline.encode(grid)
        let points = (try? EncodedPolyline.decode(encoded)) ?? grid
        let ends = [0] + Array(stride(from: 10, to: count - 1, by: 10)) + [count - 1]
        let steps = ends.enumerated().map { k, end in
            StepInfo(
                stepNumber: k, maneuver: k == 0 ? .depart : end == count - 1 ? .destination : .turnRight,
                simpleRoadName: "Street \(k)", polylineStartIndex: k == 0 ? 0 : ends[k - 1], polylineEndIndex: end)
        }
        let durations = (1..<count).map { Earth.distance(points[$0 - 1], points[$0]) / 10 }
        return NavRoute(
            encodedPolyline: encoded, steps: steps, segmentDurationsSeconds: durations,
            destinations: [RouteDestination(location: points[count - 1], polylinePointIndex: count - 1)],
            drivingSide: .right)
    }

    /// A vehicle update body setting `lastLocation` to a trace point.
    static func locationBody(_ p: TracePoint) -> String {
        """
        {"lastLocation": {"location": {"latitude": \(p.location.latitude), "longitude": \(p.location.longitude)}, \
        "heading": \(Int((p.heading ?? 0).rounded())), "speed": \(p.speedMetersPerSecond ?? 0), "latlngAccuracy": 5, \
        "updateTime": "\(Timestamp(p.time).rfc3339)"}}
        """
    }

    static let vehicleBody = """
        {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, \
        "vehicleType": {"category": "AUTO"}}
        """

    static func tripBody(vehicle: String, pickup: LatLng) -> String {
        """
        {"tripType": "EXCLUSIVE", "vehicleId": "\(vehicle)", \
        "pickupPoint": {"point": {"latitude": \(pickup.latitude), "longitude": \(pickup.longitude)}}}
        """
    }

    /// A point `north` metres north of `p`.
    static func north(_ p: LatLng, _ meters: Double) -> LatLng {
        LatLng(latitude: p.latitude + meters / LocalPlane.metersPerDegree, longitude: p.longitude)
    }
}
