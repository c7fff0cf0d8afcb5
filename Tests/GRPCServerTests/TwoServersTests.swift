import Access
import Foundation
import GRPCCore
import Hummingbird
import Logging
import PostgresStore
import ServiceLifecycle
import StoreVariants
import Synchronization
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
            let stream = try await Self.openStream(on: b.app, "/v1/providers/p/trips/t1/events?lastEventId=0", token: rider)
            #expect(stream.status == .ok)

            // The listener connects in the background, so A writes until B's stream has heard
            // one of its locations; then A changes the trip's status, which B must hear too.
            let heard = StreamText()
            async let reading: Void = heard.read(stream) { $0.contains("ENROUTE_TO_PICKUP") }
            let driver = try await a.auth(a.driver("v1"))
            var step = 0
            while !heard.contains("-121.99"), step < 50 {
                step += 1
                _ = try await a.vehicles.updateVehicle(Wire.moveVehicle("v1", 37.39, -121.99), metadata: driver)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(heard.contains("-121.99"), "B's stream heard the location sent through A's gRPC")
            _ = try await a.trips.updateTrip(Wire.setStatus("t1", .enrouteToPickup), metadata: server)
            try await reading
            #expect(heard.contains("ENROUTE_TO_PICKUP"), "B's stream heard the trip status set through A's gRPC")
            await services.triggerGracefulShutdown()
            try await running.value
        }
    }

    /// The response of `uri` on `app`'s router, opened as a client's GET with `token`.
    private static func openStream(on app: TripServerApp, _ uri: String, token: String) async throws -> Response {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: uri, headerFields: [.authorization: "Bearer \(token)"]),
            body: RequestBody(buffer: ByteBuffer()))
        return try await app.makeRouter().buildResponder().respond(to: request, context: TripRequestContext(logger: Logger(label: "test")))
    }
}

/// The text an event stream has sent so far, read as a client reads it.
private final class StreamText: Sendable {
    private let text = Mutex("")

    /// Whether the stream has sent `part`.
    func contains(_ part: String) -> Bool { text.withLock { $0.contains(part) } }

    /// Reads `response`'s body until `done` holds for the text so far, failing the test after
    /// 60 s (a watchdog for a stream that never says what the test waits for, not a timing).
    func read(_ response: Response, until done: @escaping @Sendable (String) -> Bool) async throws {
        let writer = Writer(owner: self, done: done)
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await response.body.write(writer)
                } catch is Writer.HungUp {}
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(finished, "the stream did not send what the test waited for: \(text.withLock { $0 })")
    }

    /// Appends what the server writes, and hangs up (throws, as a closed connection does) once
    /// `done` holds.
    private struct Writer: ResponseBodyWriter {
        struct HungUp: Error {}
        let owner: StreamText
        let done: @Sendable (String) -> Bool

        mutating func write(_ buffer: ByteBuffer) async throws {
            let finished = owner.text.withLock { text in
                text += String(buffer: buffer)
                return done(text)
            }
            if finished { throw HungUp() }
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
