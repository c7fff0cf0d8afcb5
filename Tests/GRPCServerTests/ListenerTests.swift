import Access
import Fleet
import FleetEngineProtos
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCServer
import Hummingbird
import JSON
import Logging
import PostgresStore
import Prometheus
import StoreVariants
import Testing
import TripServer
import TripServerTesting
import TripStore

/// The listener as `serve` runs it (DESIGN §14): TLS, readiness, and several servers on one
/// database.
@Suite struct ListenerTests {
    /// With a certificate and key the listener speaks TLS: a client trusting the test CA
    /// drives it, and a plaintext client gets no answer.
    @Test func tls() async throws {
        let certificates = try TestCertificates.make()
        try await GRPCHarness.run(tls: certificates) { h in
            let server = try await h.auth(h.server)
            _ = try await h.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            let read = try await h.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: server)
            #expect(read.lastLocation.location.latitude == 37.39)

            let plaintext = GRPCClient(
                transport: try HTTP2ClientTransport.Posix(target: .ipv4(address: "127.0.0.1", port: h.port), transportSecurity: .plaintext))
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await plaintext.runConnections() }
                // A deadline far past the refusal, so that a loaded test run still sees the
                // refusal rather than its own deadline.
                var options = CallOptions.defaults
                options.timeout = .seconds(20)
                await expectStatus(.unavailable) {
                    _ = try await VehicleClient(wrapping: plaintext).getVehicle(Wire.getVehicle("v1"), metadata: server, options: options)
                }
                plaintext.beginGracefulShutdown()
            }
        }
    }

    /// `/readyz` says the server is not ready until the gRPC listener serves.
    @Test func readinessWaitsForTheListener() async throws {
        let store = try await TestStores.make(.memory)
        let authority = try await TokenAuthority(hmacSecret: secret)
        var rest = TripServerApp(store: store, authority: authority, rateLimiter: TokenRateLimiter(policy: .unlimited))
        let listener = GRPCListener(
            fleet: rest.fleet, authenticator: rest.authenticator, registry: rest.metrics.registry, host: "127.0.0.1", port: 0,
            logger: Logger(label: "grpc-test"))
        // The readiness check joins the application before its router is made (the client's).
        rest.readinessChecks.append { listener.unreadiness }
        let client = Client(app: rest, authority: authority)
        let before = try await client.send(.get, "/readyz")
        #expect(before.status == .serviceUnavailable)
        #expect(before.text.contains("the gRPC listener is not serving"), "\(before.text)")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await listener.run() }
            _ = try await listener.port
            var ready = try await client.send(.get, "/readyz")
            for _ in 0..<20 where ready.status != .ok {
                try await Task.sleep(for: .milliseconds(100))
                ready = try await client.send(.get, "/readyz")
            }
            #expect(ready.status == .ok, "\(ready.text)")
            group.cancelAll()
        }
    }

    /// Two servers on one PostgreSQL database: what one's gRPC writes, the other reads at once
    /// through gRPC and REST.
    @Test func twoServersOneDatabase() async throws {
        let location = try TestStores.requirePostgres().inSchema(TestStores.freshSchema())
        let storeA = try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
        let storeB = try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
        try await GRPCHarness.run(store: storeA) { a in
            try await GRPCHarness.run(store: storeB) { b in
                let server = try await a.auth(a.server)
                _ = try await a.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
                _ = try await a.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.3915, -122.0), metadata: try await a.auth(a.driver("v1")))
                let read = try await b.vehicles.getVehicle(Wire.getVehicle("v1"), metadata: try await b.auth(b.server))
                #expect(read.lastLocation.location.latitude == 37.3915)
                _ = try await b.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: try await b.auth(b.server))
                try await Harness(store: storeB, clock: .system, authority: b.authority).test { client in
                    let trip = try await client.send(.get, "/v1/providers/p/trips/t1", as: b.server)
                    #expect(trip.status == .ok)
                    #expect(try trip.json()["vehicleId"] == .string("v1"))
                }
                let seenOnA = try await a.trips.getTrip(Wire.getTrip("t1"), metadata: server)
                #expect(seenOnA.vehicleID == "v1")
            }
        }
    }
}
