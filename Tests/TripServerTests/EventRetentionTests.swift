import Foundation
import HTTPTypes
import Hummingbird
import JSON
import Testing
import TripModel
import TripServerTesting
import TripStore

@testable import TripServer

/// SSE streams over a log whose head retention has deleted (DESIGN §11).
@Suite struct EventRetentionTests {
    /// A stream resumed from an event retention deleted starts with one `eventsExpired` event
    /// whose ID is the log's start, then goes on with every kept event after it, in order; a
    /// client resuming after the start hears no such thing.
    @Test func resumeFromADeletedEvent() async throws {
        let harness = try await Harness()
        let opener = StreamOpener(harness.app)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await harness.seed(client)
            for i in 0..<12 {
                try await client.expect(
                    .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                    body: Bodies.location(37.39 + Double(i) * 1e-3, -122.0))
            }
        }
        let trip = EventFilter.trip(provider: "p", tripId: "t1")
        let events = try await harness.store.events(after: 0, filter: trip, limit: 1_000)
        #expect(events.count > 10)
        let deleted = Array(events.prefix(5))
        try await harness.store.write { tx in try tx.deleteEvents(deleted.map(\.id)) }
        let start = try #require(deleted.last?.id)
        let kept = Array(events.dropFirst(5))
        let lastID = try #require(kept.last?.id)

        let ids = try await harness.app.fleet.eventStreamIDs(for: trip)
        let resumed = try await opener.open("/v1/providers/p/trips/t1/events?lastEventId=\(ids.id(of: deleted[1].id))", token: rider)
        #expect(resumed.status == .ok)
        let received = try await opener.read(resumed) { frames in frames.last?.id == lastID }
        let frames = received.frames.filter { $0.id != nil }
        #expect(frames.first?.event == "eventsExpired")
        #expect(frames.first?.id == start)
        let notice = try JSONParser.parse(Array((frames.first?.data ?? "").utf8))
        let noticeID = try #require(Int64(ids.id(of: start)))
        #expect(notice["expiredThroughEventId"] == .number(Double(noticeID), integer: noticeID))
        #expect(frames.dropFirst().map(\.id) == kept.map(\.id))
        #expect(frames.dropFirst().map(\.event) == kept.map(\.type))

        // From the start itself (what the notice's ID makes a reconnect send): nothing expired.
        let again = try await opener.open(
            "/v1/providers/p/trips/t1/events", token: rider,
            headers: [HTTPField.Name("Last-Event-ID")!: ids.id(of: start)])
        let continued = try await opener.read(again) { frames in frames.last?.id == lastID }
        #expect(continued.eventIDs == kept.map(\.id))
        #expect(!continued.frames.contains { $0.event == "eventsExpired" })
    }
}
