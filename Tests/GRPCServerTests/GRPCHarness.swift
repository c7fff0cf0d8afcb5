import Access
import Fleet
import FleetEngineProtos
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCServer
import Logging
import Prometheus
import StoreVariants
import Testing
import TripModel
import TripStore

let secret = Array("tripshare-grpc-test-secret-of-32-bytes-or-more".utf8)
let epoch = Timestamp(secondsSince1970: 1_738_774_951)

typealias VehicleClient = Maps_Fleetengine_V1_VehicleService.Client<HTTP2ClientTransport.Posix>
typealias TripClient = Maps_Fleetengine_V1_TripService.Client<HTTP2ClientTransport.Posix>

/// A gRPC listener on a real socket over a fresh store, and grpc-swift clients of both
/// services connected to it.
struct GRPCHarness: Sendable {
    let store: any TripStore
    let fleet: Fleet
    let authority: TokenAuthority
    let registry: PrometheusCollectorRegistry
    let vehicles: VehicleClient
    let trips: TripClient
    /// The connection both clients use, for calls no generated client makes (raw bytes).
    let client: GRPCClient<HTTP2ClientTransport.Posix>
    let port: Int

    /// Runs `body` against a listener over a fresh store of `kind` (or `store`), whose tokens
    /// are limited by `limiter` (none by default) and may come from `serviceAccounts`; with
    /// `tls`, the listener speaks TLS only and the clients trust the files' test CA.
    static func run(
        _ kind: TestStoreKind = .memory, store given: (any TripStore)? = nil, limiter: TokenRateLimiter = TokenRateLimiter(policy: .unlimited),
        serviceAccounts: ServiceAccounts = .none, clock: WallClock = .fixed(epoch), tls: TestCertificates? = nil,
        _ body: @Sendable (GRPCHarness) async throws -> Void
    ) async throws {
        let store: any TripStore
        if let given {
            store = given
        } else {
            store = try await TestStores.make(kind)
        }
        let fleet = Fleet(store: store, clock: clock)
        let authority = try await TokenAuthority(hmacSecret: secret, serviceAccounts: serviceAccounts, clock: clock)
        let registry = PrometheusCollectorRegistry()
        let listener = GRPCListener(
            fleet: fleet, authenticator: Authenticator(authority: authority, limiter: limiter), registry: registry,
            host: "127.0.0.1", port: 0, tls: tls?.serverFiles, logger: Logger(label: "grpc-test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listener.run() }
            let port = try await listener.port
            let security: HTTP2ClientTransport.Posix.TransportSecurity =
                if let tls {
                    .tls { config in config.trustRoots = .certificates([.file(path: tls.authority, format: .pem)]) }
                } else {
                    .plaintext
                }
            let client = GRPCClient(
                transport: try HTTP2ClientTransport.Posix(target: .dns(host: "localhost", port: port), transportSecurity: security))
            group.addTask { try await client.runConnections() }
            let harness = GRPCHarness(
                store: store, fleet: fleet, authority: authority, registry: registry, vehicles: VehicleClient(wrapping: client),
                trips: TripClient(wrapping: client), client: client, port: port)
            do {
                try await body(harness)
            } catch {
                client.beginGracefulShutdown()
                group.cancelAll()
                throw error
            }
            client.beginGracefulShutdown()
            group.cancelAll()
        }
    }

    /// The `authorization` metadata of a token for `principal`.
    func auth(_ principal: Principal) async throws -> Metadata {
        ["authorization": "Bearer \(try await authority.mint(principal))"]
    }

    var server: Principal { Principal(role: .server, provider: "p") }
    func consumer(_ trip: String, provider: String = "p") -> Principal { Principal(role: .consumer, provider: provider, tripId: trip) }
    func driver(_ vehicle: String, provider: String = "p") -> Principal { Principal(role: .driver, provider: provider, vehicleId: vehicle) }

    /// The Prometheus text of the registry the listener counts its calls in.
    var metrics: String { String(decoding: registry.emitToBuffer(), as: UTF8.self) }
}

/// A test certificate authority and a server certificate for `localhost` and 127.0.0.1 that it
/// signed, made by `openssl` in a new temporary directory.
struct TestCertificates: Sendable {
    /// The CA's certificate (PEM), which clients trust.
    let authority: String
    /// The server's certificate and key.
    let serverFiles: GRPCListener.TLSFiles

    /// New files.
    static func make() throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-grpc-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func file(_ name: String) -> String { "\(directory)/\(name)" }
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n".write(
            toFile: file("server.ext"), atomically: true, encoding: .utf8)
        try openssl(
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "2", "-subj",
            "/CN=tripshare test CA")
        try openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", file("server.key"), "-out", file("server.csr"), "-subj", "/CN=localhost")
        try openssl(
            "x509", "-req", "-in", file("server.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"), "-CAcreateserial", "-out",
            file("server.pem"), "-days", "2", "-extfile", file("server.ext"))
        return TestCertificates(
            authority: file("ca.pem"), serverFiles: GRPCListener.TLSFiles(certificateChain: file("server.pem"), privateKey: file("server.key")))
    }

    private static func openssl(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "openssl \(arguments.first ?? "") failed"])
        }
    }
}

/// Runs `call`, which must fail with `code` and a message containing `message`.
func expectStatus(
    _ code: RPCError.Code, _ message: String = "", sourceLocation: SourceLocation = #_sourceLocation, _ call: () async throws -> Void
) async {
    do {
        try await call()
        Issue.record("expected \(code), but the call succeeded", sourceLocation: sourceLocation)
    } catch let error as RPCError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        // (An empty `message` asks for none: String.contains("") is false.)
        #expect(message.isEmpty || error.message.contains(message), "'\(error.message)' should contain '\(message)'", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Messages the tests send.
enum Wire {
    static func point(_ latitude: Double, _ longitude: Double) -> Google_Type_LatLng {
        var point = Google_Type_LatLng()
        point.latitude = latitude
        point.longitude = longitude
        return point
    }

    static func terminal(_ latitude: Double, _ longitude: Double) -> Maps_Fleetengine_V1_TerminalLocation {
        var terminal = Maps_Fleetengine_V1_TerminalLocation()
        terminal.point = point(latitude, longitude)
        return terminal
    }

    /// A car of provider `p` at (37.39, -122.0) that takes exclusive trips.
    static func createVehicle(_ id: String, provider: String = "p", latitude: Double = 37.39) -> Maps_Fleetengine_V1_CreateVehicleRequest {
        var request = Maps_Fleetengine_V1_CreateVehicleRequest()
        request.parent = "providers/\(provider)"
        request.vehicleID = id
        request.vehicle.vehicleState = .online
        request.vehicle.supportedTripTypes = [.exclusive]
        request.vehicle.maximumCapacity = 4
        request.vehicle.vehicleType.category = .auto
        request.vehicle.lastLocation.location = point(latitude, -122.0)
        var attribute = Maps_Fleetengine_V1_VehicleAttribute()
        attribute.key = "class"
        attribute.value = "premium"
        request.vehicle.attributes = [attribute]
        return request
    }

    /// A location update of vehicle `id`.
    static func moveVehicle(_ id: String, _ latitude: Double, _ longitude: Double, provider: String = "p") -> Maps_Fleetengine_V1_UpdateVehicleRequest
    {
        var request = Maps_Fleetengine_V1_UpdateVehicleRequest()
        request.name = "providers/\(provider)/vehicles/\(id)"
        request.vehicle.lastLocation.location = point(latitude, longitude)
        request.updateMask.paths = ["last_location"]
        return request
    }

    /// An exclusive trip for `vehicle` from near the car to a kilometre north.
    static func createTrip(_ id: String, vehicle: String?, provider: String = "p") -> Maps_Fleetengine_V1_CreateTripRequest {
        var request = Maps_Fleetengine_V1_CreateTripRequest()
        request.parent = "providers/\(provider)"
        request.tripID = id
        if let vehicle { request.trip.vehicleID = vehicle }
        request.trip.tripType = .exclusive
        request.trip.pickupPoint = terminal(37.395, -122.0)
        request.trip.dropoffPoint = terminal(37.405, -122.0)
        return request
    }

    static func getTrip(_ id: String, view: Maps_Fleetengine_V1_TripView = .unspecified, provider: String = "p") -> Maps_Fleetengine_V1_GetTripRequest
    {
        var request = Maps_Fleetengine_V1_GetTripRequest()
        request.name = "providers/\(provider)/trips/\(id)"
        request.view = view
        return request
    }

    static func setStatus(_ id: String, _ status: Maps_Fleetengine_V1_TripStatus, provider: String = "p") -> Maps_Fleetengine_V1_UpdateTripRequest {
        var request = Maps_Fleetengine_V1_UpdateTripRequest()
        request.name = "providers/\(provider)/trips/\(id)"
        request.trip.tripStatus = status
        request.updateMask.paths = ["trip_status"]
        return request
    }

    static func getVehicle(_ id: String, provider: String = "p") -> Maps_Fleetengine_V1_GetVehicleRequest {
        var request = Maps_Fleetengine_V1_GetVehicleRequest()
        request.name = "providers/\(provider)/vehicles/\(id)"
        return request
    }
}
