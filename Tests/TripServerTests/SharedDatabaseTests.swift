import Access
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PostgresStore
import ServiceLifecycle
import StoreVariants
import Synchronization
import Testing
import TripModel
import TripServerTesting
import TripStore

@testable import TripServer

/// Two servers on one PostgreSQL database, in one test process: each with its own store
/// object (connections, caches), broadcaster and key, as two `serve` processes have.
/// IntegrationTests/processes/multi-process-test runs the same story with real processes.
@Suite struct SharedDatabaseTests {
    /// A server over its own store object on the database at `location`, signing with the key
    /// kept in that database (as `serve` does), on the real clock.
    static func server(_ location: PostgresLocation) async throws -> Harness {
        let store = try await PostgresTripStore(location: location, maximumConnections: 4, liveness: .patient, logger: TestStores.logger)
        let keys = try await SigningKeys.resolve(environment: [:], sharedIn: store, at: location.description)
        return try await Harness(store: store, clock: .system, hmacSecret: try #require(keys.hmacSecret, "the database keeps a secret"))
    }

    /// Stands for the PostgreSQL cases of this target's tests, which run only when a database
    /// is given (TestStores): reported skipped, with the reason, when they do not run;
    /// otherwise the database answers with an empty store.
    @Test(.enabled(if: TestStores.postgresWanted, TestStores.skipReason)) func postgresCasesRun() async throws {
        let store = try await TestStores.make(.postgres)
        #expect(try await store.latestEventID() == 0)
        #expect(try await store.listVehicles(provider: "p", page: PageRequest()).items.isEmpty)
    }

    /// Vehicle and trip created through A, locations through A and B: the rider's stream on B
    /// hears A's writes as they commit (LISTEN/NOTIFY, well before B's 15-second poll), and
    /// resumed on A with Last-Event-ID it holds every event of the trip once, in order. Both
    /// servers sign with the one key kept in the database.
    @Test func twoServersOneDatabase() async throws {
        let location = try TestStores.requirePostgres().inSchema(TestStores.freshSchema())
        async let startingA = Self.server(location)
        async let startingB = Self.server(location)
        let (a, b) = try await (startingA, startingB)
        let admin = try await a.authority.mint(Principal(role: .server, provider: "p", subject: "test"))
        let rider = try await b.authority.mint(Principal(role: .consumer, provider: "p", tripId: "t1", subject: "test"))
        // B runs its background services, as `serve` does: the broadcaster and the listener.
        let services = ServiceGroup(configuration: .init(services: b.app.services, logger: Logger(label: "test")))
        let running = Task { try await services.run() }
        let streamsOnB = StreamOpener(b.app)
        let streamsOnA = StreamOpener(a.app)

        try await a.test { clientA in
            try await b.test { clientB in
                try await clientA.expect(.ok, .post, "/v1/providers/p/vehicles?vehicleId=v1", token: admin, body: NavFixtures.vehicleBody)
                let created = try await clientA.send(
                    .post, "/v1/providers/p/trips?tripId=t1", token: admin,
                    body: NavFixtures.tripBody(vehicle: "v1", pickup: .init(latitude: 52.53, longitude: 13.40)))
                #expect(created.status == .ok)
                #expect(try await clientB.send(.get, "/v1/providers/p/trips/t1", token: rider).status == .ok)

                @Sendable func move(_ client: Client, _ step: Int) async throws {
                    let body = #"{"lastLocation": {"location": {"latitude": 52.52, "longitude": \#(13.40 + Double(step) * 1e-4)}}}"#
                    let reply = try await client.send(.put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", token: admin, body: body)
                    #expect(reply.status == .ok)
                }
                @Sendable func locationEvents(_ frames: [SSEFrame]) -> Int { frames.filter { $0.event == "didUpdateVehicleLocation" }.count }

                // Only A writes: B's stream must be woken by A's commits. The listener connects in
                // the background, so A writes until B's stream has heard one.
                let stream = try await streamsOnB.open("/v1/providers/p/trips/t1/events?lastEventId=0", token: rider)
                #expect(stream.status == .ok)
                let heard = Target()
                async let onB = streamsOnB.read(stream) { frames in
                    let seen = locationEvents(frames)
                    if seen > 0 { heard.value.withLock { $0 = Int64(seen) } }
                    return seen >= 12
                }
                var step = 0
                let deadline = ContinuousClock.now + .seconds(10)
                while heard.value.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
                    step += 1
                    try await move(clientA, step)
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(heard.value.withLock { $0 } != nil, "B's stream heard a write through A before its 15-second poll")
                // Then A and B alternately, until B's stream hangs up after 12 location events.
                while try await b.store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 1_000)
                    .filter({ $0.type == "didUpdateVehicleLocation" }).count < 20
                {
                    step += 1
                    if step.isMultiple(of: 2) { try await move(clientA, step) } else { try await move(clientB, step) }
                }
                let first = try await onB
                let resumeFrom = try #require(first.lastStreamID)
                for _ in 0..<6 {
                    step += 1
                    if step.isMultiple(of: 2) { try await move(clientA, step) } else { try await move(clientB, step) }
                }
                let all = try await a.store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 1_000)
                let lastID = try #require(all.last?.id)
                let resumed = try await streamsOnA.open(
                    "/v1/providers/p/trips/t1/events", token: rider, headers: [HTTPField.Name("Last-Event-ID")!: resumeFrom])
                let second = try await streamsOnA.read(resumed) { frames in frames.last(where: { $0.id != nil })?.id == lastID }
                #expect(first.eventIDs + second.eventIDs == all.map(\.id))
                #expect(all.filter { $0.type == "didUpdateVehicleLocation" }.count == step)
            }
        }
        await services.triggerGracefulShutdown()
        try await running.value
    }
}
