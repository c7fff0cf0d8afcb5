import Fleet
import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Synchronization
import Testing
import TripModel
import TripServerTesting
import TripStore

@testable import TripServer

/// Nothing leaks between tenants through the event streams (issue 29, item 6), and a body no
/// larger than the byte limit cannot cost more than its bytes (item 2).
@Suite struct TenantIsolationTests {
    /// A rider's stream numbers its events on its own: not with the log's IDs, not with the
    /// IDs another stream gives the same events; it resumes from its own IDs, and refuses
    /// another stream's.
    @Test func streamsNumberTheirEventsOnTheirOwn() async throws {
        let harness = try await Harness()
        let opener = StreamOpener(harness.app)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await harness.seed(client)
            for i in 0..<6 {
                try await client.expect(
                    .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                    body: Bodies.location(37.39 + Double(i) * 1e-3, -122.0))
            }
        }
        let logged = try await harness.store.events(after: 0, filter: .trip(provider: "p", tripId: "t1"), limit: 100)
        let lastID = try #require(logged.last?.id)
        let tripStream = try await opener.open("/v1/providers/p/trips/t1/events?lastEventId=0", token: rider)
        let onTrip = try await opener.read(tripStream) { frames in frames.last?.id == lastID }
        #expect(onTrip.eventIDs == logged.map(\.id))
        let shown = onTrip.frames.compactMap(\.streamID)
        #expect(Set(shown).isDisjoint(with: logged.map { String($0.id) }))

        let vehicleStream = try await opener.open("/v1/providers/p/vehicles/v1/events?lastEventId=0", token: try await harness.token(harness.server))
        let onVehicle = try await opener.read(vehicleStream) { frames in frames.last?.id == lastID }
        let tripIDs = Dictionary(zip(onTrip.eventIDs, shown), uniquingKeysWith: { a, _ in a })
        for frame in onVehicle.frames where frame.id != nil {
            #expect(tripIDs[frame.id!] != frame.streamID)
        }

        // Resumed from its third event: the rest, once.
        let resumed = try await opener.open(
            "/v1/providers/p/trips/t1/events", token: rider, headers: [HTTPField.Name("Last-Event-ID")!: shown[2]])
        let rest = try await opener.read(resumed) { frames in frames.last?.id == lastID }
        #expect(rest.eventIDs == Array(logged.map(\.id).dropFirst(3)))

        // The vehicle stream's ID of an event is not the trip stream's.
        let foreign = try #require(onVehicle.lastStreamID)
        let refused = try await opener.open(
            "/v1/providers/p/trips/t1/events", token: rider, headers: [HTTPField.Name("Last-Event-ID")!: foreign])
        #expect(refused.status == .badRequest)
    }

    /// A token holds at most `--max-streams-per-token` streams, counted by who it is, not how
    /// it is spelt; a closed stream makes room, and another token has its own.
    @Test func streamsPerTokenAreCapped() async throws {
        let harness = try await Harness(limits: RequestLimits(streamsPerToken: 2))
        let opener = StreamOpener(harness.app)
        let rider = try await harness.token(harness.consumer("t1"))
        let sameRider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in try await harness.seed(client) }
        let first = try await opener.open("/v1/providers/p/trips/t1/events", token: rider)
        let second = try await opener.open("/v1/providers/p/trips/t1/events", token: sameRider)
        #expect([first.status, second.status] == [.ok, .ok])
        let third = try await opener.open("/v1/providers/p/trips/t1/events", token: rider)
        #expect(third.status == .tooManyRequests)
        let message = try JSONParser.parse(try await third.response.bodyBytes())
        #expect(message["error"]?["status"] == .string("RESOURCE_EXHAUSTED"))
        let server = try await opener.open("/v1/providers/p/trips/t1/events", token: try await harness.token(harness.server))
        #expect(server.status == .ok)

        // The first client hangs up: its place is free again.
        _ = try await opener.read(first) { _ in true }
        let again = try await opener.open("/v1/providers/p/trips/t1/events", token: rider)
        #expect(again.status == .ok)
    }

    /// A driver's PUT of an object with 10,001 members is INVALID_ARGUMENT saying so, under
    /// the standard limit; raised to 20,000, the same body reaches the decoder (which refuses
    /// its unknown field).
    @Test func jsonMembersAreBounded() async throws {
        let body = "{" + (0...10_000).map { "\"m\($0)\":0" }.joined(separator: ",") + "}"
        for (limits, expected) in [
            (RequestLimits.standard, "JSON too large at byte 98891: an object has more than 10000 members"),
            (RequestLimits(json: .perObject(20_000)), "unknown field"),
        ] {
            let harness = try await Harness(limits: limits)
            try await harness.test { client in
                try await harness.seed(client)
                let refused = try await client.expect(
                    .badRequest, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.driver("v1"), body: body)
                #expect(refused.errorStatus == "INVALID_ARGUMENT")
                #expect(refused.errorMessage.contains(expected), "\(refused.errorMessage)")
            }
        }
    }
}

extension Response {
    /// The whole body of a finite response.
    func bodyBytes() async throws -> [UInt8] {
        let collector = BodyCollector()
        try await body.write(collector)
        return collector.bytes.withLock { $0 }
    }
}

/// Collects a response body in memory.
final class BodyCollector: ResponseBodyWriter, Sendable {
    let bytes = Mutex<[UInt8]>([])
    func write(_ buffer: ByteBuffer) async throws { bytes.withLock { $0 += Array(buffer.readableBytesView) } }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
