import Foundation
import Hummingbird
import JSON
import Raster
import Render
import StoreVariants
import Styling
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct PreviewRoutesTests {
    static let path = "/v1/providers/p/trips/t1/preview.png"

    /// The trip's consumer gets a PNG of its rider view, exactly what Render draws from GET trip.
    @Test(arguments: TestStoreKind.available) func consumerGetsThePreview(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(
                .ok, .put, "/v1/providers/p/trips/t1?updateMask=tripStatus", as: harness.server,
                body: Bodies.status("ENROUTE_TO_PICKUP"))
            let reply = try await client.expect(.ok, .get, Self.path + "?width=320&height=240&scale=2", as: harness.consumer("t1"))
            #expect(reply.headers[.contentType] == "image/png")
            #expect(reply.headers[.cacheControl] == "private, max-age=5")
            #expect(reply.etag?.hasPrefix("\"p") == true)
            let image = try PNGCodec.decode(reply.body)
            #expect(image.width == 640 && image.height == 480)

            let view = try JSONCoding.decode(
                Trip.self, from: try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.consumer("t1")).body, root: "trip")
            let preview = TripPreview(
                trip: view, style: try StyleLibrary.bundled().defaultStyle,
                options: PreviewOptions(width: 320, height: 240, scale: 2), now: WallClock.system.now)
            #expect(preview.etaLabel == "Now")
            #expect(try preview.png() == reply.body)
        }
    }

    /// Only those who may read the trip get its preview.
    @Test(arguments: TestStoreKind.available) func accessFollowsTheTrip(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .get, Self.path, as: harness.server)
            try await client.expect(.ok, .get, Self.path, as: harness.driver("v1"))
            try await client.expect(.forbidden, .get, Self.path, as: harness.consumer("t2"))
            // Another vehicle's driver learns nothing, not even that the trip exists (issue 29).
            try await client.expect(.notFound, .get, Self.path, as: harness.driver("v9"))
            try await client.expect(.unauthorized, .get, Self.path)
            try await client.expect(.notFound, .get, "/v1/providers/p/trips/zz/preview.png", as: harness.server)
        }
    }

    /// If-None-Match with the ETag answers 304; moving the vehicle, changing the style or
    /// the options changes the ETag.
    @Test(arguments: TestStoreKind.available) func conditionalRequests(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let rider = harness.consumer("t1")
            let first = try await client.expect(.ok, .get, Self.path, as: rider)
            let etag = try #require(first.etag)
            for condition in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let cached = try await client.send(.get, Self.path, as: rider, headers: [.ifNoneMatch: condition])
                #expect(cached.status == .notModified && cached.body.isEmpty && cached.etag == etag)
            }
            #expect(try await client.send(.get, Self.path, as: rider, headers: [.ifNoneMatch: "\"stale\""]).status == .ok)
            #expect(try await client.expect(.ok, .get, Self.path, as: rider).etag == etag)
            #expect(try await client.expect(.ok, .get, Self.path + "?bearing=30", as: rider).etag != etag)

            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=lastLocation", as: harness.server,
                body: Bodies.location(37.395, -122.0))
            let moved = try await client.send(.get, Self.path, as: rider, headers: [.ifNoneMatch: etag])
            #expect(moved.status == .ok && moved.etag != etag)

            try await client.expect(.ok, .put, "/v1/styles/default/polylines/activeRoute", as: harness.admin, body: #"{"width": 9}"#)
            let restyled = try await client.send(.get, Self.path, as: rider, headers: [.ifNoneMatch: moved.etag ?? ""])
            #expect(restyled.status == .ok && restyled.etag != moved.etag)
        }
    }

    /// Bad options are a 400 naming the parameter; an unknown style is a 404.
    @Test(arguments: TestStoreKind.available) func badOptions(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            for (query, name) in [
                ("width=5000", "width"), ("scale=5", "scale"), ("width=1024&scale=3", "width"), ("center=91,0", "center"),
                ("center=abc", "center"), ("zoom=30", "zoom"), ("lighting=dusk", "lighting"), ("padding=-1", "padding"),
            ] {
                let reply = try await client.expect(.badRequest, .get, Self.path + "?" + query, as: harness.server)
                #expect(reply.errorMessage.hasPrefix("\(name):"), "\(query): \(reply.errorMessage)")
            }
            try await client.expect(.notFound, .get, Self.path + "?style=nope", as: harness.server)
            try await client.expect(.ok, .get, Self.path + "?style=night&lighting=lowLight&center=37.4,-122&zoom=14", as: harness.server)
        }
    }

    /// Render time is exported as a histogram.
    @Test(arguments: TestStoreKind.available) func renderTimeMetric(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .get, Self.path, as: harness.server)
            let text = try await client.expect(.ok, .get, "/metrics").text
            #expect(text.contains("tripshare_render_duration_seconds_count 1"), "\(text)")
        }
    }
}
