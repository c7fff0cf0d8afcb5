import Fleet
import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Logging
import NIOEmbedded
import Navigation
import NavigationTesting
import StoreVariants
import Synchronization
import Testing
import TripModel
import TripServerTesting
import TripStore

@testable import TripServer

/// The last event ID a test waits for, set once known.
final class Target: Sendable {
    let value = Mutex<Int64?>(nil)
}

@Suite struct EventStreamTests {
    static let vehicles = "/v1/providers/p/vehicles"

    /// Creates vehicle `v`, its trip `t`, and a route for it.
    static func setUp(_ client: Client, admin: String, vehicle: String, trip: String) async throws -> NavRoute {
        let route = StraightRoute.streets()
        try await client.send(.post, "\(vehicles)?vehicleId=\(vehicle)", token: admin, body: NavFixtures.vehicleBody)
        try await client.send(
            .post, "/v1/providers/p/trips?tripId=\(trip)", token: admin,
            body: NavFixtures.tripBody(vehicle: vehicle, pickup: route.destinations[0].location))
        #expect(try await client.send(.put, "\(vehicles)/\(vehicle)/route", token: admin, json: route).status == .ok)
        return route
    }

    static func drive(_ client: Client, _ points: some Sequence<TracePoint>, vehicle: String, token: String) async throws {
        for p in points {
            try await client.send(.put, "\(vehicles)/\(vehicle)?updateMask=lastLocation", token: token, body: NavFixtures.locationBody(p))
        }
    }

    /// An event's frame: its ID, its type and one `data:` line per line of its payload,
    /// whichever line break (LF, CR, CRLF) the payload uses; multi-byte text passes intact.
    @Test func eventFrames() {
        func frame(_ data: String) -> String {
            var buffer = ByteBuffer()
            let event = StoredEvent(
                id: 42, time: Timestamp(secondsSince1970: 0), provider: "p", vehicleId: nil, tripIds: [],
                type: "didUpdateNavInfo", data: data)
            ServerSentEvents.append(event, id: String(event.id), to: &buffer)
            return String(buffer: buffer)
        }
        #expect(frame(#"{"road":"Rua Áurea → 北京"}"#) == "id: 42\nevent: didUpdateNavInfo\ndata: {\"road\":\"Rua Áurea → 北京\"}\n\n")
        #expect(frame("a\nb\r\nc\rd") == "id: 42\nevent: didUpdateNavInfo\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(frame("") == "id: 42\nevent: didUpdateNavInfo\ndata: \n\n")
        #expect(frame("end\n") == "id: 42\nevent: didUpdateNavInfo\ndata: end\ndata: \n\n")
        #expect(frame("\r\n\n") == "id: 42\nevent: didUpdateNavInfo\ndata: \ndata: \ndata: \n\n")
    }

    /// A client that disconnects mid-stream and resumes with Last-Event-ID, while updates
    /// keep coming, receives every event of its vehicle exactly once, in order.
    @Test(arguments: TestStoreKind.persistent) func resumeAfterDisconnect(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let driver = try await server.token(.driver, vehicle: "v1")
        let harness = try await server.start()
        let app = harness.app
        let opener = StreamOpener(app)
        try await harness.test { client in
            let route = try await Self.setUp(client, admin: admin, vehicle: "v1", trip: "t1")
            let points = Array(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2))
            try await Self.drive(client, points.prefix(10), vehicle: "v1", token: driver)

            let first = try await opener.open("\(Self.vehicles)/v1/events?lastEventId=0", token: driver)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/event-stream; charset=utf-8")
            let head = try await opener.read(first) { frames in frames.filter { $0.id != nil }.count == 7 }
            #expect(head.frames.first?.isComment == true)
            let resumeFrom = try #require(head.lastStreamID)

            let second = try await opener.open(
                "\(Self.vehicles)/v1/events", token: driver,
                headers: [HTTPField.Name("Last-Event-ID")!: resumeFrom])
            let target = Target()
            async let tail = opener.read(second) { frames in
                guard let goal = target.value.withLock({ $0 }), let last = frames.last(where: { $0.id != nil })?.id else {
                    return false
                }
                return last >= goal
            }
            try await Self.drive(client, points.dropFirst(10).prefix(10), vehicle: "v1", token: driver)
            let all = try await app.store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 10_000)
            target.value.withLock { $0 = all.last?.id }
            // Wakes the stream even when it already has everything, so it checks the goal.
            app.broadcaster.heartbeat()
            let received = try await tail
            let ids = head.eventIDs + received.eventIDs
            #expect(ids == all.map(\.id))
            let types = (head.frames + received.frames).compactMap(\.event)
            #expect(types == all.map(\.type))
        }
    }

    /// A rider's stream carries only its own trip's events; other trips and vehicles are
    /// refused, and so is a malformed resume point.
    @Test(arguments: TestStoreKind.persistent) func consumerSeesOnlyItsTrip(_ store: TestStoreKind) async throws {
        let server = try await RestartableServer(store)
        let admin = try await server.token(.server)
        let rider = try await server.token(.consumer, trip: "t1")
        let harness = try await server.start()
        let app = harness.app
        let opener = StreamOpener(app)
        try await harness.test { client in
            let route = try await Self.setUp(client, admin: admin, vehicle: "v1", trip: "t1")
            _ = try await Self.setUp(client, admin: admin, vehicle: "v2", trip: "t2")
            let points = Array(try DriveSimulator(route: route, start: NavFixtures.start, interval: 2).prefix(5))
            try await Self.drive(client, points, vehicle: "v1", token: admin)
            try await Self.drive(client, points, vehicle: "v2", token: admin)
            try await client.send(
                .put, "/v1/providers/p/trips/t2?updateMask=tripStatus", token: admin,
                body: "{\"tripStatus\": \"ENROUTE_TO_PICKUP\"}")

            let mine = try await app.store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 10_000)
            let theirs = try await app.store.events(after: 0, filter: .trip(provider: "p", tripId: "t2"), limit: 10_000)
            #expect(!mine.isEmpty && !theirs.isEmpty)
            let response = try await opener.open("/v1/providers/p/trips/t1/events?lastEventId=0", token: rider)
            #expect(response.status == .ok)
            let lastID = try #require(mine.last?.id)
            let received = try await opener.read(response) { frames in frames.last?.id == lastID }
            #expect(received.eventIDs == mine.map(\.id))
            #expect(Set(received.eventIDs).isDisjoint(with: theirs.map(\.id)))
            #expect(received.frames.contains { $0.event == "didUpdateNavInfo" })

            let denied = [
                try await opener.open("/v1/providers/p/trips/t2/events", token: rider),
                try await opener.open("\(Self.vehicles)/v1/events", token: rider),
                try await opener.open("/v1/providers/p/trips/t2/events", token: try await server.token(.driver, vehicle: "v1")),
            ]
            // The driver of another vehicle is told what a missing trip gets (issue 29: no
            // existence oracle).
            #expect(denied.map(\.status) == [.forbidden, .forbidden, .notFound])
            let malformed = try await opener.open(
                "/v1/providers/p/trips/t1/events", token: rider,
                headers: [HTTPField.Name("Last-Event-ID")!: "yesterday"])
            #expect(malformed.status == .badRequest)
            #expect(try await opener.open("/v1/providers/p/trips/t9/events", token: admin).status == .notFound)
        }
    }

    /// A subscriber that reads nothing while many events arrive never holds up delivery;
    /// when it reads, it gets every event once, in order, from the store past its overflowed
    /// buffer; heartbeats come when there is nothing new.
    /// A write that comes in by no HTTP route (the gRPC wire, a command) reaches the streams
    /// as one through the API does: the fleet announces every commit to the broadcaster.
    @Test func writesOfEveryWireReachSubscribers() async throws {
        let fleet = Fleet(store: InMemoryTripStore())
        let broadcaster = EventBroadcaster(fleet: fleet)
        _ = try await fleet.createVehicle(
            provider: "p", id: "v1", input: try JSONCoding.decode(Vehicle.self, from: Array(NavFixtures.vehicleBody.utf8), root: "vehicle"))
        var subscription = try await broadcaster.subscribe(.vehicle(provider: "p", vehicleId: "v1"), after: nil)
        var input = Vehicle(name: "")
        input.lastLocation = VehicleLocation(location: .init(latitude: 52.52, longitude: 13.401))
        _ = try await fleet.updateVehicle(provider: "p", id: "v1", input: input, mask: FieldMask("lastLocation"))
        // Nothing else wakes the broadcaster: without the announcement the stream would wait
        // for ever (here: until the watchdog ends it).
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            broadcaster.finish()
        }
        let next = try await subscription.next()
        watchdog.cancel()
        guard case .events(let events) = next else {
            Issue.record("the fleet's write did not reach the stream: \(next)")
            return
        }
        let logged = try await fleet.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100).map(\.id)
        #expect(!events.isEmpty && events.map(\.id) == Array(logged.suffix(events.count)))
        broadcaster.finish()
        subscription.close()
    }

    @Test func slowSubscriberCatchesUp() async throws {
        let store = Fleet(store: InMemoryTripStore())
        var configuration = EventBroadcaster.Configuration()
        configuration.bufferCapacity = 4
        configuration.pageSize = 3
        let broadcaster = EventBroadcaster(fleet: store, configuration: configuration)
        _ = try await store.createVehicle(
            provider: "p", id: "v1",
            input: try JSONCoding.decode(
                Vehicle.self, from: Array(NavFixtures.vehicleBody.utf8), root: "vehicle"))
        var subscription = try await broadcaster.subscribe(.vehicle(provider: "p", vehicleId: "v1"), after: nil)
        func move(_ i: Int) async throws {
            var input = Vehicle(name: "")
            input.lastLocation = VehicleLocation(location: .init(latitude: 52.52, longitude: 13.40 + Double(i) * 1e-4))
            _ = try await store.updateVehicle(provider: "p", id: "v1", input: input, mask: FieldMask("lastLocation"))
            await broadcaster.drain()
        }
        // One event read live, so the subscriber is past its first catch-up and on its buffer.
        try await move(0)
        guard case .events(let firstEvents) = try await subscription.next() else {
            Issue.record("expected the first event")
            return
        }
        var ids = firstEvents.map(\.id)
        // Then 29 more while it reads nothing: its 4-event buffer overflows.
        for i in 1..<30 { try await move(i) }
        let expected = try await store.events(after: 0, filter: .vehicle(provider: "p", vehicleId: "v1"), limit: 100).map(\.id)
        #expect(expected.count == 30)
        while ids.count < expected.count {
            guard case .events(let events) = try await subscription.next() else { break }
            ids += events.map(\.id)
        }
        #expect(ids == expected)
        broadcaster.heartbeat()
        guard case .heartbeat = try await subscription.next() else {
            Issue.record("expected a heartbeat")
            return
        }
        broadcaster.finish()
        guard case .finished = try await subscription.next() else {
            Issue.record("expected the end of the stream")
            return
        }
        subscription.close()
        #expect(broadcaster.subscriberCount == 0)
    }
}
