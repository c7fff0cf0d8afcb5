import Access
import Foundation
import GRPCCore
import Logging
import PostgresStore
import ServiceLifecycle
import StoreVariants
import Testing
import TripServer
import TripServerTesting

/// One state, two wires, across servers (DESIGN §14): two servers on one PostgreSQL database,
/// each with its own store object, as two `serve` processes have; what one's gRPC listener
/// writes reaches an event stream open on the other.
@Suite struct TwoServersTests {
    /// A rider's event stream opened on server B hears the vehicle's location sent through
    /// server A's gRPC UpdateVehicle, and the trip's status sent through its UpdateTrip, as they
    /// commit: B learns of A's commits from the database (LISTEN/NOTIFY), well before its
    /// 15-second poll.
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) func grpcWriteOnAReachesStreamOnB() async throws {
        let location = try TestStores.requirePostgres().inSchema(TestStores.freshSchema())
        let storeA = try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
        let storeB = try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
        try await GRPCHarness.run(store: storeA) { a in
            let b = try await Harness(store: storeB, authority: a.authority)
            // B runs its background services, as `serve` does: the broadcaster and the listener.
            let services = ServiceGroup(configuration: .init(services: b.app.services, logger: Logger(label: "test")))
            let running = Task { try await services.run() }
            defer { running.cancel() }
            let server = try await a.auth(a.server)
            _ = try await a.vehicles.createVehicle(Wire.createVehicle("v1"), metadata: server)
            _ = try await a.trips.createTrip(Wire.createTrip("t1", vehicle: "v1"), metadata: server)
            let rider = try await a.authority.mint(a.consumer("t1"))
            let streams = StreamOpener(b.app)
            let stream = try await streams.open("/v1/providers/p/trips/t1/events?lastEventId=0", token: rider)
            #expect(stream.status == .ok)

            // The listener connects in the background, so A writes until B's stream has heard
            // one of its locations; then A changes the trip's status, which B must hear too.
            let received = SSEClientWriter.Received()
            @Sendable func heard(_ part: String, in frames: [SSEFrame]) -> Bool { frames.contains { $0.data.contains(part) } }
            async let reading = streams.read(stream, into: received) { heard("ENROUTE_TO_PICKUP", in: $0) }
            let driver = try await a.auth(a.driver("v1"))
            var step = 0
            while !heard("-121.99", in: received.frames), step < 50 {
                step += 1
                _ = try await a.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.39, -121.99), metadata: driver)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(heard("-121.99", in: received.frames), "B's stream heard the location sent through A's gRPC")
            _ = try await a.trips.updateTrip(Wire.setStatus("t1", .enrouteToPickup), metadata: server)
            _ = try await reading
            #expect(heard("ENROUTE_TO_PICKUP", in: received.frames), "B's stream heard the trip status set through A's gRPC")
            await services.triggerGracefulShutdown()
            try await running.value
        }
    }
}
