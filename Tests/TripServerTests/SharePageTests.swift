import Foundation
import Hummingbird
import StoreVariants
import Testing
import TripModel
import TripServerTesting

@testable import TripServer

@Suite struct SharePageTests {
    /// A rider's token opens the page of its trip: provider, trip and the vehicle's labels
    /// are filled in (escaped), and the page loads only this server's script and style.
    @Test(arguments: TestStoreKind.available) func pageForRider(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        let rider = try await harness.token(harness.consumer("t1"))
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: harness.server,
                body: """
                    {"attributes": [{"key": "vehicleLabel", "value": "Blue <Prius>"}, {"key": "driverLabel", "value": "Sam"}]}
                    """)
            let reply = try await client.send(.get, "/share/\(rider)")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "text/html; charset=utf-8")
            #expect(reply.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            #expect(reply.text.contains(#"data-provider="p" data-trip="t1""#))
            #expect(reply.text.contains("Blue &lt;Prius&gt;"))
            #expect(reply.text.contains(">Sam<"))
            #expect(reply.text.contains(#"<script src="/share/assets/share.js"></script>"#))
            // One absolute URL only, this server's: the link preview's picture (og:image).
            let urls = reply.text.ranges(of: "http").count
            #expect(urls == 1 && reply.text.contains(#"<meta property="og:image" content="http://"#), "\(urls) absolute URLs")
        }
    }

    /// Bad links get a readable page with the right status: an invalid token 401, a token
    /// that is not a rider's 403, a trip that does not exist 404.
    @Test(arguments: TestStoreKind.available) func badLinks(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        let server = try await harness.token(harness.server)
        let stranger = try await harness.token(harness.consumer("nope"))
        try await harness.test { client in
            try await harness.seed(client)
            let invalid = try await client.send(.get, "/share/not-a-token")
            #expect(invalid.status == .unauthorized)
            #expect(invalid.text.contains("This share link has expired or is not valid"))
            #expect(try await client.send(.get, "/share/\(server)").status == .forbidden)
            let missing = try await client.send(.get, "/share/\(stranger)")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("This trip cannot be found"))
        }
    }

    /// The page's script and style sheet are served with their types; nothing else is.
    @Test(arguments: TestStoreKind.available) func assets(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let script = try await client.send(.get, "/share/assets/share.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("followEventStream("))
            let events = try await client.send(.get, "/share/assets/eventstream.js")
            #expect(events.text.contains("Last-Event-ID"))
            let style = try await client.send(.get, "/share/assets/share.css")
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.send(.get, "/share/assets/secret.txt").status == .notFound)
        }
    }
}
